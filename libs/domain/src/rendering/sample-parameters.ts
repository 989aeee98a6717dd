import { InvalidRequestError } from '@notify/util';
import Handlebars from 'handlebars';
import { TemplateSyntaxError } from './template-renderer';

/** Merge tags given a sample value per template, at most; the rest render empty. */
export const MAX_SAMPLE_TAGS = 500;

type Context = Record<string, unknown>;

/** The value a merge tag gets in a test: its own name in brackets (`{{user.name}}` → `[user.name]`). */
const sampleValue = (path: readonly string[]): string => `[${path.join('.')}]`;

const isObject = (value: unknown): value is Context =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Names that reach an object's prototype rather than a property of its own: a tag such as
 * `{{__proto__.x}}` is tenant input, and following it would write onto `Object.prototype` for the
 * whole process. A path with one of them gets no sample (it renders empty, as Handlebars hides them).
 */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** A context without a prototype, so no name a tag reads can reach one. */
const newContext = (): Context => Object.create(null) as Context;

/** A context's own value for a name: never one inherited from a prototype. */
const own = (context: Context, name: string): unknown =>
  Object.hasOwn(context, name) ? context[name] : undefined;

/**
 * Walks a parsed template and gives each merge tag it reads a sample value, in the context the tag
 * reads it from: `{{#each items}}{{name}}{{/each}}` gets `items: [{name: "[items.name]"}]`, and
 * `{{#with user}}` an object. Helpers' own arguments, partials, `@data` and parent (`../`) paths are
 * left alone; a tag's value never replaces an object another tag needs.
 */
class SampleCollector {
  readonly root: Context = newContext();
  private tags = 0;

  program(program: hbs.AST.Program | undefined, context: Context, prefix: readonly string[]): void {
    for (const statement of program?.body ?? []) this.statement(statement, context, prefix);
  }

  private statement(statement: hbs.AST.Statement, context: Context, prefix: readonly string[]): void {
    if (statement.type === 'MustacheStatement') {
      const mustache = statement as hbs.AST.MustacheStatement;
      if (mustache.params.length === 0 && (mustache.hash?.pairs.length ?? 0) === 0)
        this.leaf(mustache.path, context, prefix);
      return;
    }
    if (statement.type !== 'BlockStatement') return;
    const block = statement as hbs.AST.BlockStatement;
    const helper =
      block.path.type === 'PathExpression' ? (block.path as hbs.AST.PathExpression).original : '';
    const [argument] = block.params;
    const path =
      argument?.type === 'PathExpression' ? this.plainPath(argument as hbs.AST.PathExpression) : undefined;
    if (path !== undefined && (helper === 'each' || helper === 'with')) {
      const inner = this.objectAt(context, path, helper === 'each');
      if (inner !== undefined) {
        this.program(block.program, inner.item, [...prefix, ...path]);
        this.program(block.inverse, context, prefix);
        return;
      }
    }
    if (path !== undefined && (helper === 'if' || helper === 'unless'))
      this.leaf(argument as hbs.AST.PathExpression, context, prefix);
    this.program(block.program, context, prefix);
    this.program(block.inverse, context, prefix);
  }

  /**
   * The parts of a path read from the current context, or undefined for `@data`, `../`, `this` and
   * a path naming a prototype.
   */
  private plainPath(path: hbs.AST.PathExpression): string[] | undefined {
    if (path.data || path.depth > 0 || path.parts.length === 0) return undefined;
    if (path.parts.some((part) => PROTOTYPE_NAMES.has(part))) return undefined;
    return path.parts;
  }

  private leaf(expression: hbs.AST.Expression, context: Context, prefix: readonly string[]): void {
    if (expression.type !== 'PathExpression' || this.tags >= MAX_SAMPLE_TAGS) return;
    const path = this.plainPath(expression as hbs.AST.PathExpression);
    if (path === undefined) return;
    const parent = this.parentOf(context, path);
    const name = path[path.length - 1] as string;
    if (parent === undefined || own(parent, name) !== undefined) return;
    parent[name] = sampleValue([...prefix, ...path]);
    this.tags++;
  }

  /** The object holding the last part of `path`, made on the way (a sample string in the way gives way). */
  private parentOf(context: Context, path: readonly string[]): Context | undefined {
    let current = context;
    for (const part of path.slice(0, -1)) {
      const next = own(current, part);
      if (Array.isArray(next)) {
        const [first] = next as unknown[];
        if (!isObject(first)) return undefined;
        current = first;
      } else if (isObject(next)) current = next;
      else current = current[part] = newContext();
    }
    return current;
  }

  /** The context `{{#each path}}` (one item of a one-item list) or `{{#with path}}` (an object) gives its body. */
  private objectAt(context: Context, path: readonly string[], list: boolean): { item: Context } | undefined {
    const parent = this.parentOf(context, path);
    if (parent === undefined) return undefined;
    const name = path[path.length - 1] as string;
    const existing = own(parent, name);
    if (Array.isArray(existing)) {
      const [first] = existing as unknown[];
      return isObject(first) ? { item: first } : undefined;
    }
    if (isObject(existing)) return { item: existing };
    const item = newContext();
    parent[name] = list ? [item] : item;
    return { item };
  }
}

/**
 * Sample parameters for rendering templates in a test (`POST /sender/test/email`) or a preview:
 * every merge tag the templates read gets its own name in brackets, so the rendered message shows
 * where each value goes. A template that does not parse is a 400 naming its field, as it would fail
 * the send; with `invalid: 'skip'` it gives no samples instead (a preview reports it as its render's
 * problem).
 */
export function sampleParameters(
  templates: readonly { field: string; source: string | undefined }[],
  invalid: 'refuse' | 'skip' = 'refuse',
): Context {
  const collector = new SampleCollector();
  for (const { field, source } of templates) {
    if (source === undefined || !source.includes('{{')) continue;
    let program: hbs.AST.Program;
    try {
      program = Handlebars.parse(source);
    } catch (error) {
      if (invalid === 'skip') continue;
      const problem = new TemplateSyntaxError(field, error);
      throw new InvalidRequestError({
        code: 'INVALID_TEMPLATE',
        message: problem.message,
        fix: 'Correct the Handlebars syntax (every {{#block}} closed with {{/block}}, tags closed with }}).',
      });
    }
    collector.program(program, collector.root, []);
  }
  return collector.root;
}
