import { LruCache } from '@notify/util';
import Handlebars from 'handlebars';
import { type ComponentSources, MAX_COMPONENT_DEPTH } from '../components/component';
import { parsePlainTags, type PlainTemplate, renderPlainTags } from './plain-tags';

/** A template ready to render: plain tags substituted directly, or a compiled Handlebars template. */
type Compiled = { readonly plain: PlainTemplate } | { readonly handlebars: Handlebars.TemplateDelegate };

/** Why a template could not be rendered; the router logs it as the send's failure. */
export class TemplateError extends Error {
  constructor(
    readonly field: string,
    /** Why, without the field (`syntax error on line 2`). */
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = new.target.name;
  }
}

export class TemplateSyntaxError extends TemplateError {
  constructor(field: string, cause: unknown) {
    super(field, templateFailure(cause));
  }
}

const clip = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * Why Handlebars could not compile or render a template, in the tenant's terms: the helper or
 * partial it names, the line of a syntax error, or Handlebars' own sentence about a helper's
 * arguments; never a JavaScript engine message ("Cannot read properties of undefined…") or a stack.
 * The log keeps this as the send's failure, so the wording is stable.
 */
function templateFailure(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : '';
  const syntax = /^(?:Parse|Lexical) error on line (\d+)/.exec(message);
  if (syntax !== null)
    return `syntax error on line ${syntax[1]}${
      /got 'EOF'\s*$/.test(message) ? ': the template ends inside an unclosed tag or block' : ''
    }`;
  if (cause instanceof Handlebars.Exception) {
    const helper = /^Missing helper: "(.*)"$/s.exec(message);
    if (helper !== null)
      return `unknown helper "${clip(helper[1] ?? '')}" (only the built-in helpers are available)`;
    const partial = /^The partial (.*) could not be found$/s.exec(message);
    if (partial !== null) return `unknown partial "${clip(partial[1] ?? '')}"`;
    return clip(message.split('\n')[0] ?? '', 200);
  }
  if (cause instanceof RangeError) return 'partials or blocks nest too deeply';
  return 'a built-in helper was called with missing or wrong arguments';
}

/** A template that would take too long or grow too large (loops over huge lists, repeated huge values). */
export class TemplateBudgetError extends TemplateError {}

export interface RenderBudget {
  /**
   * Block bodies run per render (each iteration of {{#each}}, each {{#if}} branch taken, …), and
   * components inserted (each `{{> componentId}}` run, empty ones too).
   */
  readonly maxIterations: number;
  /** Characters produced per render: parameter text read plus block output, counted as produced. */
  readonly maxOutput: number;
}

export const DEFAULT_RENDER_BUDGET: RenderBudget = { maxIterations: 100_000, maxOutput: 8 * 1024 * 1024 };

export interface RenderOptions {
  /** HTML escapes parameter values (email bodies); text inserts them as given (subjects, SMS). */
  readonly html: boolean;
  /** Where the template is, for error messages (`email.subject`). */
  readonly field: string;
  /**
   * Stored templates render for every send of their notification, so their compiled form is kept;
   * inline content is compiled for its one send and not kept (it would fill the cache with one-offs).
   */
  readonly cache: boolean;
  /**
   * The environment's components, which the template uses as partials (`{{> componentId}}`). Each
   * is compiled from its HTML and cached by that HTML, so a changed component is never served
   * from an older compilation.
   */
  readonly partials?: ComponentSources;
}

type Partial = Handlebars.TemplateDelegate;

/**
 * `preventIndent`: Handlebars would otherwise repeat the indentation before a partial standing
 * alone on its line on every line of the partial's output, after the partial counted it, so a
 * wide indent before a component of many short lines would multiply the output uncounted.
 */
const compileOptions = (escape: boolean) => ({ noEscape: !escape, strict: false, preventIndent: true });

const BLOCK_HELPERS = ['each', 'with', 'if', 'unless', 'blockHelperMissing'] as const;

/**
 * Renders merge tags (Handlebars) in tenant-supplied templates, bounded in time and memory: its own
 * Handlebars instance (without the `log` helper, which would let a template write to stdout), a
 * compiled-template cache bounded by bytes, and a budget per render on block iterations and on
 * characters produced, so neither a loop over a huge list nor a huge value repeated a million times
 * can take the process down. Prototype properties stay hidden (Handlebars' default).
 */
export class TemplateRenderer {
  private readonly handlebars = Handlebars.create();
  private readonly compiled: LruCache<string, { template: Compiled; bytes: number }>;
  private readonly helpers: ReadonlySet<string>;
  /** Each component set's partials, escaping and not, built once per set (a changed set is a new map). */
  private readonly partialSets = new WeakMap<ComponentSources, Map<boolean, Record<string, Partial>>>();
  private iterations = 0;
  private output = 0;
  private depth = 0;
  /** What the partials run inside the current one returned: counted by them already. */
  private nestedPartialOutput = 0;
  private field = '';

  constructor(
    cacheBytes: number,
    private readonly budget: RenderBudget = DEFAULT_RENDER_BUDGET,
  ) {
    this.compiled = new LruCache({
      maxEntries: 100_000,
      maxWeight: cacheBytes,
      weigh: (entry) => entry.bytes,
    });
    this.handlebars.unregisterHelper('log');
    this.budgetInlinePartials();
    // Handlebars reports a template reaching for a prototype property on the console; that is a
    // tenant's template doing what it may not, not something for the service's output. (The
    // logger object is Handlebars' own, shared; nothing else here logs through it.)
    this.handlebars.logger.level = this.handlebars.logger.ERROR + 1;
    for (const name of BLOCK_HELPERS) this.budgetBlocks(name);
    this.helpers = new Set(Object.keys(this.handlebars.helpers));
  }

  /** Cached compiled templates and their estimated bytes (for tests and diagnostics). */
  get cacheUsage(): { entries: number; bytes: number } {
    return { entries: this.compiled.size, bytes: this.compiled.totalWeight };
  }

  render(source: string, parameters: Record<string, unknown>, options: RenderOptions): string {
    if (!source.includes('{{')) return source;
    this.iterations = 0;
    this.output = 0;
    this.depth = 0;
    this.nestedPartialOutput = 0;
    this.field = options.field;
    try {
      const template = this.compile(source, options);
      if ('plain' in template)
        return renderPlainTags(template.plain, parameters, options.html, (text) => this.produced(text));
      const partials =
        options.partials === undefined ? undefined : this.partialsOf(options.partials, options.html);
      return template.handlebars(this.counted(parameters), partials === undefined ? undefined : { partials });
    } catch (error) {
      if (error instanceof TemplateError) throw error;
      throw new TemplateSyntaxError(options.field, error);
    }
  }

  private compile(source: string, options: RenderOptions): Compiled {
    const key = `${options.html ? 'h' : 't'}${source}`;
    const cached = options.cache ? this.compiled.get(key) : undefined;
    if (cached !== undefined) return cached.template;
    const plain = parsePlainTags(source, this.helpers);
    const template: Compiled =
      plain !== undefined
        ? { plain }
        : { handlebars: this.handlebars.compile(source, compileOptions(options.html)) };
    // A compiled template weighs a few times its source (the key is the source itself).
    if (options.cache) this.compiled.set(key, { template, bytes: source.length * (plain ? 3 : 8) });
    return template;
  }

  /**
   * The partials of a component set: each compiles its component's HTML on first use (through the
   * cache, keyed by that HTML), counts the nesting against MAX_COMPONENT_DEPTH (a cycle fails at
   * once instead of recursing), counts each run as an iteration (an empty component repeated
   * costs time though it produces nothing), and counts what it produces against the budget: its
   * own text only, since the partials it runs counted theirs.
   */
  private partialsOf(components: ComponentSources, escape: boolean): Record<string, Partial> {
    const sets = this.partialSets.get(components) ?? new Map<boolean, Record<string, Partial>>();
    this.partialSets.set(components, sets);
    const known = sets.get(escape);
    if (known !== undefined) return known;
    const partials: Record<string, Partial> = {};
    for (const [id, html] of components)
      partials[id] = (context, runtime) => {
        if (++this.depth > MAX_COMPONENT_DEPTH) {
          this.depth--;
          throw new TemplateBudgetError(this.field, `components nest more than ${MAX_COMPONENT_DEPTH} deep`);
        }
        try {
          return this.runPartial(this.compilePartial(html, escape), context, runtime);
        } finally {
          this.depth--;
        }
      };
    sets.set(escape, partials);
    return partials;
  }

  /**
   * Runs a partial (a component, or an inline partial of the template) as one iteration, counting
   * its own text only: the partials it ran counted theirs.
   */
  private runPartial(partial: Partial, context: unknown, runtime?: Handlebars.RuntimeOptions): string {
    this.iterated();
    const outer = this.nestedPartialOutput;
    this.nestedPartialOutput = 0;
    let text = '';
    try {
      text = partial(context, runtime);
      this.count(text.length - this.nestedPartialOutput);
      return text;
    } finally {
      this.nestedPartialOutput = outer + text.length;
    }
  }

  /**
   * Inline partials (`{{#*inline "name"}}`) run through runPartial too, so repeating one (empty or
   * not) is bounded like a component; one that uses itself fails when the stack runs out.
   */
  private budgetInlinePartials(): void {
    type Decorator = (
      fn: Partial,
      props: unknown,
      container: unknown,
      options: { fn: Partial; args: unknown[] },
    ) => unknown;
    const decorators = this.handlebars.decorators as Record<string, Decorator>;
    const inline = decorators['inline'];
    if (inline === undefined) throw new Error('Handlebars has no inline decorator');
    const budgeted: Decorator = (fn, props, container, options) =>
      inline(fn, props, container, {
        ...options,
        fn: (context, runtime) => this.runPartial(options.fn, context, runtime),
      });
    this.handlebars.registerDecorator('inline', budgeted);
  }

  /** A component's compiled form: Handlebars calls a partial, so it is never substituted directly. */
  private compilePartial(html: string, escape: boolean): Partial {
    const key = `p${escape ? 'h' : 't'}${html}`;
    const cached = this.compiled.get(key)?.template;
    if (cached !== undefined && 'handlebars' in cached) return cached.handlebars;
    const handlebars = this.handlebars.compile(html, compileOptions(escape));
    this.compiled.set(key, { template: { handlebars }, bytes: html.length * 8 });
    return handlebars;
  }

  /** Wraps a block helper so every block body it runs is counted against the budget. */
  private budgetBlocks(name: (typeof BLOCK_HELPERS)[number]): void {
    const original = this.handlebars.helpers[name] as (...args: unknown[]) => unknown;
    const count =
      (body: Handlebars.TemplateDelegate) => (context: unknown, more?: Handlebars.RuntimeOptions) => {
        this.iterated();
        return this.produced(body(context, more));
      };
    this.handlebars.registerHelper(name, function (this: unknown, ...args: unknown[]) {
      const options = args.at(-1) as Handlebars.HelperOptions;
      const counted = { ...options, fn: count(options.fn), inverse: count(options.inverse) };
      return original.apply(this, [...args.slice(0, -1), counted]);
    });
  }

  /** Parameters as templates see them: every string read is counted as produced output. */
  private counted(parameters: Record<string, unknown>): Record<string, unknown> {
    const proxies = new WeakMap<object, object>();
    const wrap = (target: object): object => {
      let proxy = proxies.get(target);
      if (proxy === undefined) {
        proxy = new Proxy(target, {
          get: (object, property, receiver) => {
            const read: unknown = Reflect.get(object, property, receiver);
            if (typeof read === 'string') this.produced(read);
            return typeof read === 'object' && read !== null ? wrap(read) : read;
          },
        });
        proxies.set(target, proxy);
      }
      return proxy;
    };
    return wrap(parameters) as Record<string, unknown>;
  }

  private iterated(): void {
    if (++this.iterations > this.budget.maxIterations)
      throw new TemplateBudgetError(this.field, `more than ${this.budget.maxIterations} block iterations`);
  }

  private produced(text: string): string {
    this.count(text.length);
    return text;
  }

  private count(characters: number): void {
    this.output += characters;
    if (this.output > this.budget.maxOutput)
      throw new TemplateBudgetError(this.field, `renders more than ${this.budget.maxOutput} characters`);
  }
}
