/**
 * The metric-math grammar of insight expressions, read by a tokenizer and a recursive-descent
 * parser into a tree the interpreter walks; nothing is ever evaluated as code. Bounded: at most
 * MAX_EXPRESSION_LENGTH characters, MAX_EXPRESSION_DEPTH levels of nesting and
 * MAX_EXPRESSION_NODES nodes.
 *
 *   expression := comparison
 *   comparison := additive (("==" | "!=" | "<" | "<=" | ">" | ">=") additive)?
 *   additive   := term (("+" | "-") term)*
 *   term       := unary (("*" | "/") unary)*
 *   unary      := "-" unary | primary
 *   primary    := number | id | "(" expression ")" | "[" expression ("," expression)* "]"
 *               | FUNCTION "(" argument ("," argument)* ")"
 *   argument   := expression | "REPEAT" | "LINEAR"        (the last two only as FILL's second)
 */
export const MAX_EXPRESSION_LENGTH = 1_024;
export const MAX_EXPRESSION_DEPTH = 32;
export const MAX_EXPRESSION_NODES = 256;

export const EXPRESSION_FUNCTIONS = ['SUM', 'AVG', 'MIN', 'MAX', 'RATE', 'FILL', 'IF'] as const;
export type ExpressionFunction = (typeof EXPRESSION_FUNCTIONS)[number];
export type FillMode = 'REPEAT' | 'LINEAR';
export type BinaryOperator = '+' | '-' | '*' | '/' | '==' | '!=' | '<' | '<=' | '>' | '>=';

export type ExpressionNode =
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'ref'; readonly id: string }
  | { readonly kind: 'negate'; readonly operand: ExpressionNode }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOperator;
      readonly left: ExpressionNode;
      readonly right: ExpressionNode;
    }
  | { readonly kind: 'array'; readonly items: readonly ExpressionNode[] }
  | {
      readonly kind: 'call';
      readonly fn: Exclude<ExpressionFunction, 'FILL'>;
      readonly args: readonly ExpressionNode[];
    }
  | {
      readonly kind: 'fill';
      readonly operand: ExpressionNode;
      readonly with: ExpressionNode | FillMode;
    };

/** A syntax error, with the character position it was found at (from 1). */
export class ExpressionSyntaxError extends Error {}

type Token =
  | { readonly type: 'number'; readonly value: number; readonly at: number }
  | { readonly type: 'name'; readonly value: string; readonly at: number }
  | { readonly type: 'punct'; readonly value: string; readonly at: number }
  | { readonly type: 'end'; readonly at: number };

const PUNCTUATION = ['==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '(', ')', '[', ']', ','];
const isDigit = (c: string) => c >= '0' && c <= '9';
const isNameStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isNamePart = (c: string) => isNameStart(c) || isDigit(c);

function fail(message: string, at: number): never {
  throw new ExpressionSyntaxError(`${message} at character ${at + 1}`);
}

/** Splits the text into tokens, one linear scan. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (isDigit(c) || (c === '.' && isDigit(text.charAt(i + 1)))) {
      const start = i;
      while (isDigit(text.charAt(i))) i++;
      if (text.charAt(i) === '.') {
        i++;
        while (isDigit(text.charAt(i))) i++;
      }
      if (text.charAt(i) === 'e' || text.charAt(i) === 'E') {
        let j = i + 1;
        if (text.charAt(j) === '+' || text.charAt(j) === '-') j++;
        if (!isDigit(text.charAt(j))) fail('an exponent needs digits', j);
        while (isDigit(text.charAt(j))) j++;
        i = j;
      }
      const value = Number(text.slice(start, i));
      if (!Number.isFinite(value)) fail('a number out of range', start);
      tokens.push({ type: 'number', value, at: start });
    } else if (isNameStart(c)) {
      const start = i;
      while (isNamePart(text.charAt(i))) i++;
      tokens.push({ type: 'name', value: text.slice(start, i), at: start });
    } else {
      const punct = PUNCTUATION.find((p) => text.startsWith(p, i));
      if (punct === undefined) fail(`unexpected "${c}"`, i);
      tokens.push({ type: 'punct', value: punct, at: i });
      i += punct.length;
    }
  }
  tokens.push({ type: 'end', at: text.length });
  return tokens;
}

const isFunction = (name: string): name is ExpressionFunction =>
  (EXPRESSION_FUNCTIONS as readonly string[]).includes(name);

/** Query ids as the request names them: a lowercase letter, then letters, digits and underscores. */
export const QUERY_ID_PATTERN = /^[a-z][A-Za-z0-9_]*$/;

class Parser {
  private position = 0;
  private nodes = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parse(): ExpressionNode {
    const node = this.expression(1);
    const next = this.peek();
    if (next.type !== 'end') fail(`unexpected ${describe(next)}`, next.at);
    return node;
  }

  private expression(depth: number): ExpressionNode {
    if (depth > MAX_EXPRESSION_DEPTH)
      fail(`nested deeper than ${MAX_EXPRESSION_DEPTH} levels`, this.peek().at);
    const left = this.additive(depth);
    const next = this.peek();
    if (next.type === 'punct' && ['==', '!=', '<', '<=', '>', '>='].includes(next.value)) {
      this.position++;
      return this.node({
        kind: 'binary',
        op: next.value as BinaryOperator,
        left,
        right: this.additive(depth),
      });
    }
    return left;
  }

  private additive(depth: number): ExpressionNode {
    let node = this.term(depth);
    for (let next = this.peek(); next.type === 'punct' && (next.value === '+' || next.value === '-');) {
      this.position++;
      node = this.node({ kind: 'binary', op: next.value, left: node, right: this.term(depth) });
      next = this.peek();
    }
    return node;
  }

  private term(depth: number): ExpressionNode {
    let node = this.unary(depth);
    for (let next = this.peek(); next.type === 'punct' && (next.value === '*' || next.value === '/');) {
      this.position++;
      node = this.node({ kind: 'binary', op: next.value, left: node, right: this.unary(depth) });
      next = this.peek();
    }
    return node;
  }

  private unary(depth: number): ExpressionNode {
    const next = this.peek();
    if (next.type === 'punct' && next.value === '-') {
      if (depth >= MAX_EXPRESSION_DEPTH) fail(`nested deeper than ${MAX_EXPRESSION_DEPTH} levels`, next.at);
      this.position++;
      return this.node({ kind: 'negate', operand: this.unary(depth + 1) });
    }
    return this.primary(depth);
  }

  private primary(depth: number): ExpressionNode {
    const token = this.take();
    switch (token.type) {
      case 'number':
        return this.node({ kind: 'number', value: token.value });
      case 'name':
        if (QUERY_ID_PATTERN.test(token.value)) return this.node({ kind: 'ref', id: token.value });
        if (isFunction(token.value)) return this.call(token.value, depth);
        return fail(`unknown function or id "${token.value}"`, token.at);
      case 'punct':
        if (token.value === '(') {
          const inner = this.expression(depth + 1);
          this.expect(')');
          return inner;
        }
        if (token.value === '[') {
          const items = this.list(']', depth);
          return this.node({ kind: 'array', items });
        }
        return fail(`unexpected ${describe(token)}`, token.at);
      case 'end':
        return fail('the expression ends too early', token.at);
    }
  }

  private call(fn: ExpressionFunction, depth: number): ExpressionNode {
    const open = this.peek();
    this.expect('(');
    if (fn === 'FILL') {
      const operand = this.expression(depth + 1);
      this.expect(',');
      const mode = this.peek();
      let filler: ExpressionNode | FillMode;
      if (mode.type === 'name' && (mode.value === 'REPEAT' || mode.value === 'LINEAR')) {
        this.position++;
        filler = mode.value;
      } else {
        filler = this.expression(depth + 1);
      }
      this.expect(')');
      return this.node({ kind: 'fill', operand, with: filler });
    }
    const args = this.list(')', depth);
    const arity: Record<typeof fn, [number, number]> = {
      SUM: [1, 100],
      AVG: [1, 100],
      MIN: [1, 100],
      MAX: [1, 100],
      RATE: [1, 1],
      IF: [2, 3],
    };
    const [least, most] = arity[fn];
    if (args.length < least || args.length > most)
      fail(
        `${fn} takes ${least === most ? least : `${least} to ${most}`} argument${most === 1 ? '' : 's'}, not ${args.length}`,
        open.at,
      );
    return this.node({ kind: 'call', fn, args });
  }

  private list(close: ')' | ']', depth: number): ExpressionNode[] {
    const items = [this.expression(depth + 1)];
    while (this.peek().type === 'punct' && (this.peek() as { value: string }).value === ',') {
      this.position++;
      items.push(this.expression(depth + 1));
    }
    this.expect(close);
    return items;
  }

  private node(node: ExpressionNode): ExpressionNode {
    if (++this.nodes > MAX_EXPRESSION_NODES)
      fail(`more than ${MAX_EXPRESSION_NODES} terms`, this.tokens[this.position - 1]?.at ?? 0);
    return node;
  }

  private peek(): Token {
    // The token list always ends with an `end` token, which is never consumed.
    return this.tokens[Math.min(this.position, this.tokens.length - 1)] as Token;
  }

  private take(): Token {
    const token = this.peek();
    if (token.type !== 'end') this.position++;
    return token;
  }

  private expect(value: string): void {
    const token = this.peek();
    if (token.type !== 'punct' || token.value !== value)
      fail(`expected "${value}" but found ${describe(token)}`, token.at);
    this.position++;
  }
}

function describe(token: Token): string {
  return token.type === 'end' ? 'the end' : `"${String(token.value)}"`;
}

/** Parses an expression; an ExpressionSyntaxError says what is wrong and where. */
export function parseExpression(text: string): ExpressionNode {
  if (text.length > MAX_EXPRESSION_LENGTH)
    throw new ExpressionSyntaxError(`longer than ${MAX_EXPRESSION_LENGTH} characters`);
  return new Parser(tokenize(text)).parse();
}

/** How many nodes (numbers, ids, operators, calls, lists) an expression has. */
export function expressionSize(node: ExpressionNode): number {
  switch (node.kind) {
    case 'number':
    case 'ref':
      return 1;
    case 'negate':
      return 1 + expressionSize(node.operand);
    case 'binary':
      return 1 + expressionSize(node.left) + expressionSize(node.right);
    case 'array':
      return node.items.reduce((n, item) => n + expressionSize(item), 1);
    case 'call':
      return node.args.reduce((n, arg) => n + expressionSize(arg), 1);
    case 'fill':
      return (
        1 + expressionSize(node.operand) + (typeof node.with === 'string' ? 0 : expressionSize(node.with))
      );
  }
}

/** The query ids an expression refers to, each once, in order of appearance. */
export function referencedIds(node: ExpressionNode): string[] {
  const ids = new Set<string>();
  const visit = (n: ExpressionNode): void => {
    switch (n.kind) {
      case 'number':
        return;
      case 'ref':
        ids.add(n.id);
        return;
      case 'negate':
        return visit(n.operand);
      case 'binary':
        visit(n.left);
        return visit(n.right);
      case 'array':
        return n.items.forEach(visit);
      case 'call':
        return n.args.forEach(visit);
      case 'fill':
        visit(n.operand);
        if (typeof n.with !== 'string') visit(n.with);
        return;
    }
  };
  visit(node);
  return [...ids];
}
