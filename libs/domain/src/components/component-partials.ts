import { InvalidRequestError } from '@notify/util';
import Handlebars from 'handlebars';

/** Whether a source may use a partial at all: Handlebars only opens one with `{{>`, `{{#>` or a decorator. */
const PARTIAL_OPENING = /\{\{~?(?:#?>|#?\*)/;

export const mayUseComponents = (source: string): boolean => PARTIAL_OPENING.test(source);

const invalid = (field: string, message: string) =>
  new InvalidRequestError({
    code: 'INVALID_TEMPLATE',
    message: `${field}: ${message}`,
    fix: 'Use a component as {{> componentId}}: a fixed name, with no argument, block or inline partial.',
  });

/**
 * How deep blocks, and parentheses (sub-expressions), may nest in a source checked at save.
 * Handlebars' parser takes time that grows much faster than either nesting (seconds for a few
 * thousand levels), so deeper sources are refused before they are parsed; real templates nest a
 * handful of levels. Parentheses are counted over the whole source, text included, where they
 * hardly ever nest either.
 */
const MAX_NESTING = 64;

/**
 * What Handlebars reads as no tags at all: comments (`{{!-- … --}}`, `{{! … }}`) and raw blocks
 * (`{{{{name}}}} … {{{{/name}}}}`). Tags written inside them must not count towards the nesting,
 * or blocks could nest without bound behind closings that are only comment text.
 */
const NOT_TAGS = /\{\{~?!--[\s\S]*?--~?\}\}|\{\{~?![\s\S]*?\}\}|\{\{\{\{[\s\S]*?\{\{\{\{\/[^}]*\}\}\}\}/g;

/** Block openings (`{{#`, `{{^name`, never the `{{^}}` else) and closings (`{{/`), as Handlebars lexes them. */
const BLOCK_TAG = /\{\{~?(?:(#)|(\^)(?!\s*~?\}\})|(\/))/g;

/** The deepest block nesting of a source, counted from its tags without parsing it. */
function blockNesting(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [, open, inverse] of source.matchAll(BLOCK_TAG)) {
    depth = open !== undefined || inverse !== undefined ? depth + 1 : Math.max(0, depth - 1);
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** The deepest nesting of parentheses in a source. */
function parenthesisNesting(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (const char of source.matchAll(/[()]/g))
    if (char[0] === '(') deepest = Math.max(deepest, ++depth);
    else depth = Math.max(0, depth - 1);
  return deepest;
}

/**
 * The partial statements of a source, found with Handlebars' own parser. Only the plain form
 * `{{> componentId}}` is a component: its name is fixed (a dynamic `{{> (lookup …)}}` could name
 * anything, so no save-time check could cover it), it takes the caller's context (no argument or
 * hash), and partial blocks and inline partials are refused, so a component's content is exactly
 * what the render inserts and can be expanded in place.
 */
function partialStatements(source: string, field: string): hbs.AST.PartialStatement[] {
  if (!source.includes('{{')) return [];
  const tags = source.replace(NOT_TAGS, '');
  if (blockNesting(tags) > MAX_NESTING) throw invalid(field, `blocks nest more than ${MAX_NESTING} deep`);
  if (parenthesisNesting(tags) > MAX_NESTING)
    throw invalid(field, `sub-expressions (or parentheses) nest more than ${MAX_NESTING} deep`);
  const found: hbs.AST.PartialStatement[] = [];
  class Partials extends Handlebars.Visitor {
    override PartialStatement(partial: hbs.AST.PartialStatement): void {
      const { name } = partial;
      if (name.type !== 'PathExpression' || name.data || name.parts.length !== 1)
        throw invalid(field, 'a partial must name a component ({{> componentId}})');
      if (partial.params.length > 0 || (partial.hash?.pairs.length ?? 0) > 0)
        throw invalid(
          field,
          `{{> ${name.original}}} takes no argument (a component uses the caller's values)`,
        );
      found.push(partial);
    }
    override PartialBlockStatement(): void {
      throw invalid(field, 'partial blocks ({{#> …}}) are not supported');
    }
    override DecoratorBlock(): void {
      throw invalid(field, 'inline partials ({{#*inline}}) are not supported; use a component');
    }
    override Decorator(): void {
      throw invalid(field, 'decorators ({{* …}}) are not supported');
    }
  }
  try {
    new Partials().accept(Handlebars.parse(source));
  } catch (error) {
    if (error instanceof InvalidRequestError) throw error;
    const line = /on line (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw invalid(field, `syntax error${line === undefined ? '' : ` on line ${line}`}`);
  }
  return found;
}

const nameOf = (partial: hbs.AST.PartialStatement) => (partial.name as hbs.AST.PathExpression).original;

/**
 * The ids of the components a source calls (`{{> componentId}}`), once per call, in order.
 * A syntax error (anywhere in the source) or another form of partial is a 400 naming `field`.
 */
export function componentCalls(source: string, field: string): string[] {
  return partialStatements(source, field).map(nameOf);
}

/** The ids of the components a source uses, each once, in order of first use (see componentCalls). */
export function componentsUsed(source: string, field: string): string[] {
  return [...new Set(componentCalls(source, field))];
}

/** The offset in `source` of a parser position (1-based line, 0-based column). */
function offsets(source: string): (position: hbs.AST.Position) => number {
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return (position) => (lineStarts[position.line - 1] ?? 0) + position.column;
}

/**
 * `source` with every `{{> componentId}}` replaced by that component's HTML, itself expanded: the
 * template a render of `source` with these components amounts to (whitespace aside: Handlebars
 * indents a partial standing alone on its line). A component missing from `components` stays as its
 * partial; expansion stops at `maxDepth`, where a render fails.
 */
export function expandComponents(
  source: string,
  components: ReadonlyMap<string, string>,
  maxDepth: number,
  field = 'html',
): string {
  if (maxDepth <= 0) return source;
  return (
    substitute(source, field, Infinity, (id) => {
      const body = components.get(id);
      return body === undefined ? body : expandComponents(body, components, maxDepth - 1, field);
    }) ?? source
  );
}

/** What a partial is replaced by: its text, `undefined` to keep the partial, `null` when it cannot be. */
type Substitution = (componentId: string) => string | undefined | null;

/** `source` with each partial substituted; null when one cannot be or the result exceeds maxLength. */
function substitute(source: string, field: string, maxLength: number, by: Substitution): string | null {
  const partials = partialStatements(source, field);
  if (partials.length === 0) return source.length > maxLength ? null : source;
  const at = offsets(source);
  let expanded = '';
  let from = 0;
  for (const partial of partials) {
    const body = by(nameOf(partial));
    if (body === null) return null;
    if (body === undefined) continue;
    expanded += source.slice(from, at(partial.loc.start)) + body;
    if (expanded.length > maxLength) return null;
    from = at(partial.loc.end);
  }
  expanded += source.slice(from);
  return expanded.length > maxLength ? null : expanded;
}

/**
 * Every component's HTML expanded (see expandComponents), each component parsed and expanded
 * once however many others use it. A component whose expansion would exceed `maxLength`
 * characters, does not parse, or takes part in a cycle (which saves refuse, but concurrent saves
 * could store) is answered as its own HTML, unexpanded; so is every component that uses it.
 */
export function expandEachComponent(
  components: ReadonlyMap<string, string>,
  maxLength: number,
): Map<string, string> {
  const expanded = new Map<string, string | null>();
  const expanding = new Set<string>();
  const expand = (id: string): string | undefined | null => {
    const html = components.get(id);
    if (html === undefined) return undefined;
    const known = expanded.get(id);
    if (known !== undefined) return known;
    if (expanding.has(id)) return null;
    expanding.add(id);
    let result: string | null;
    try {
      result = substitute(html, 'html', maxLength, expand);
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error;
      result = null;
    }
    expanding.delete(id);
    expanded.set(id, result);
    return result;
  };
  return new Map([...components].map(([id, html]) => [id, expand(id) ?? html]));
}

/**
 * The components a stored source uses, each once. One that does not parse cannot render, so it uses none;
 * one without a partial is not parsed at all.
 */
export function componentsUsedByStored(source: string): string[] {
  return [...new Set(componentCallsByStored(source))];
}

/** The component calls of a stored source (see componentCalls), none when it does not parse. */
export function componentCallsByStored(source: string): string[] {
  if (!mayUseComponents(source)) return [];
  try {
    return componentCalls(source, 'html');
  } catch (error) {
    if (error instanceof InvalidRequestError) return [];
    throw error;
  }
}
