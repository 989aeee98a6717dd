/** An attribute value as written in the HTML, with where it sits (the quotes excluded). */
export interface AttributeValue {
  readonly value: string;
  readonly start: number;
  readonly end: number;
  readonly quote: '"' | "'" | '';
}

/** One `<a …>` start tag: where it starts and ends (after its `>`), and the wanted attributes' first values. */
export interface AnchorTag {
  readonly start: number;
  readonly end: number;
  readonly attributes: ReadonlyMap<string, AttributeValue>;
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const GT = 0x3e;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

/** Character codes (NaN, past the end, is none of them). */
const isSpace = (c: number) => c === SPACE || c === TAB || c === LF || c === FF || c === CR;
const endsName = (c: number) => isSpace(c) || c === SLASH || c === GT;

/** The wanted name html[start, end) spells in any case, compared in place (nothing is copied). */
function wantedName(html: string, start: number, end: number, wanted: readonly string[]): string | undefined {
  for (const name of wanted) {
    if (name.length !== end - start) continue;
    let same = true;
    for (let k = 0; same && k < name.length; k++) {
      const c = html.charCodeAt(start + k);
      // ASCII letters A-Z read as a-z; nothing else changes.
      same = (c >= 0x41 && c <= 0x5a ? c | 0x20 : c) === name.charCodeAt(k);
    }
    if (same) return name;
  }
  return undefined;
}

/**
 * The `<a>` start tags of an HTML document, read the way an HTML parser reads a start tag: names
 * end at space, `/`, `>` or `=`; a quoted value runs to its closing quote (`>` included), an
 * unquoted one to space or `>`; of a repeated attribute the first counts. Only the `wanted`
 * attributes (lower-case names) are kept. Each character is read once, so time is linear in the
 * input whatever it holds: a tag that never closes (no `>`, or an open quote) takes the rest of
 * the document with it, as in a browser, and ends the scan.
 */
export function* anchorTags(html: string, wanted: readonly string[]): Generator<AnchorTag> {
  let position = 0;
  for (;;) {
    const lt = html.indexOf('<', position);
    if (lt === -1) return;
    position = lt + 1;
    const letter = html[lt + 1];
    if ((letter !== 'a' && letter !== 'A') || (lt + 2 < html.length && !endsName(html.charCodeAt(lt + 2))))
      continue;
    const tag = readTag(html, lt, lt + 2, wanted);
    if (tag === undefined) return;
    position = tag.end;
    yield tag;
  }
}

/** The tag whose attributes start at `from`, or undefined when the document ends inside it. */
function readTag(
  html: string,
  start: number,
  from: number,
  wanted: readonly string[],
): AnchorTag | undefined {
  const attributes = new Map<string, AttributeValue>();
  let i = from;
  for (;;) {
    while (i < html.length && (isSpace(html.charCodeAt(i)) || html.charCodeAt(i) === SLASH)) i++;
    if (i >= html.length) return undefined;
    if (html.charCodeAt(i) === GT) return { start, end: i + 1, attributes };
    const nameStart = i;
    // An attribute name may begin with `=`; after that, `=` ends it.
    i++;
    while (i < html.length && !endsName(html.charCodeAt(i)) && html.charCodeAt(i) !== EQUALS) i++;
    const name = wantedName(html, nameStart, i, wanted);
    while (isSpace(html.charCodeAt(i))) i++;
    if (html.charCodeAt(i) !== EQUALS) continue;
    i++;
    while (isSpace(html.charCodeAt(i))) i++;
    const quote = html.charCodeAt(i);
    const quoted = quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE;
    let valueStart = i;
    let valueEnd: number;
    if (quoted) {
      valueStart = i + 1;
      valueEnd = html.indexOf(html[i] as string, valueStart);
      if (valueEnd === -1) return undefined;
      i = valueEnd + 1;
    } else {
      while (i < html.length && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== GT) i++;
      valueEnd = i;
    }
    if (name !== undefined && !attributes.has(name))
      attributes.set(name, {
        value: html.slice(valueStart, valueEnd),
        start: valueStart,
        end: valueEnd,
        quote: quote === DOUBLE_QUOTE ? '"' : quote === SINGLE_QUOTE ? "'" : '',
      });
  }
}
