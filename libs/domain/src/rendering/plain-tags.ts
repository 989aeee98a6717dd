import Handlebars from 'handlebars';

/**
 * A template made only of text and plain merge tags (`{{name}}`, `{{order.id}}`): by far the most
 * common shape, and rendered here by direct substitution with Handlebars' own semantics (the same
 * lookups, the same escaping) instead of compiling it to JavaScript, which costs a hundred times
 * more for a template used once (inline content). Anything else — blocks, helpers, partials,
 * comments, triple braces, whitespace control, `this`, `..`, `@data`, literals — is left to
 * Handlebars (`parsePlainTags` answers undefined).
 */
export interface PlainTemplate {
  /** Text before each tag, and after the last one: one more than `paths`. */
  readonly texts: readonly string[];
  /** Each tag's property path. */
  readonly paths: readonly (readonly string[])[];
}

/** A path segment Handlebars reads as a plain identifier (not a literal, keyword or data variable). */
const SEGMENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const NOT_PLAIN = new Set(['this', 'true', 'false', 'null', 'undefined', 'else']);

/**
 * The plain form of `source`, or undefined when it uses anything beyond plain tags. `helpers` are
 * the names Handlebars would call rather than look up (`{{each}}` is a helper call).
 */
export function parsePlainTags(source: string, helpers: ReadonlySet<string>): PlainTemplate | undefined {
  if (source.includes('}}}')) return undefined;
  const texts: string[] = [];
  const paths: string[][] = [];
  let at = 0;
  for (;;) {
    const open = source.indexOf('{{', at);
    if (open < 0) break;
    if (source[open - 1] === '\\') return undefined;
    const close = source.indexOf('}}', open + 2);
    if (close < 0) return undefined;
    const inner = source.slice(open + 2, close).trim();
    const path = inner.split('.');
    const plain =
      path.every((segment) => SEGMENT.test(segment) && !NOT_PLAIN.has(segment)) &&
      !(path.length === 1 && helpers.has(inner));
    if (!plain) return undefined;
    texts.push(source.slice(at, open));
    paths.push(path);
    at = close + 2;
  }
  texts.push(source.slice(at));
  return { texts, paths };
}

/** Handlebars' lookup: own properties only (prototype properties stay hidden), null-safe. */
function lookup(context: unknown, path: readonly string[]): unknown {
  let value = context;
  for (const segment of path) {
    if (value === null || value === undefined) return value;
    if (
      (typeof value !== 'object' && typeof value !== 'string') ||
      !Object.prototype.hasOwnProperty.call(value, segment)
    )
      return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/**
 * Renders a plain template: each tag's value HTML-escaped as Handlebars escapes it (`html`), or
 * inserted as Handlebars would with `noEscape`. `produced` sees each inserted value (the budget).
 */
export function renderPlainTags(
  template: PlainTemplate,
  parameters: unknown,
  html: boolean,
  produced: (text: string) => void,
): string {
  let out = template.texts[0] ?? '';
  template.paths.forEach((path, i) => {
    const value = lookup(parameters, path);
    const text = html
      ? Handlebars.Utils.escapeExpression(value as string)
      : value == null
        ? ''
        : String(value);
    produced(text);
    out += text + (template.texts[i + 1] ?? '');
  });
  return out;
}
