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

function parse(source: string, field: string): hbs.AST.Program {
  try {
    return Handlebars.parse(source);
  } catch (error) {
    const line = /on line (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw invalid(field, `syntax error${line === undefined ? '' : ` on line ${line}`}`);
  }
}

/**
 * The partial statements of a source, found with Handlebars' own parser. Only the plain form
 * `{{> componentId}}` is a component: its name is fixed (a dynamic `{{> (lookup …)}}` could name
 * anything, so no save-time check could cover it), it takes the caller's context (no argument or
 * hash), and partial blocks and inline partials are refused, so a component's content is exactly
 * what the render inserts and can be expanded in place.
 */
function partialStatements(source: string, field: string): hbs.AST.PartialStatement[] {
  if (!mayUseComponents(source)) return [];
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
  new Partials().accept(parse(source, field));
  return found;
}

const nameOf = (partial: hbs.AST.PartialStatement) => (partial.name as hbs.AST.PathExpression).original;

/**
 * The ids of the components a source uses (`{{> componentId}}`), each once, in order of first use.
 * A syntax error or another form of partial is a 400 naming `field`.
 */
export function componentsUsed(source: string, field: string): string[] {
  return [...new Set(partialStatements(source, field).map(nameOf))];
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
  const partials = partialStatements(source, field);
  if (partials.length === 0) return source;
  const at = offsets(source);
  let expanded = '';
  let from = 0;
  for (const partial of partials) {
    const body = components.get(nameOf(partial));
    if (body === undefined) continue;
    const start = at(partial.loc.start);
    expanded += source.slice(from, start) + expandComponents(body, components, maxDepth - 1, field);
    from = at(partial.loc.end);
  }
  return expanded + source.slice(from);
}

/**
 * The components a stored source uses. One that no longer parses (saved before components were
 * checked) cannot render, so it uses none.
 */
export function componentsUsedByStored(source: string): string[] {
  try {
    return componentsUsed(source, 'html');
  } catch (error) {
    if (error instanceof InvalidRequestError) return [];
    throw error;
  }
}
