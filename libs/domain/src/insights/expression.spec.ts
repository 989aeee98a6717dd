import {
  ExpressionSyntaxError,
  MAX_EXPRESSION_DEPTH,
  MAX_EXPRESSION_LENGTH,
  MAX_EXPRESSION_NODES,
  parseExpression,
  referencedIds,
} from './expression';

describe('parseExpression', () => {
  it('binds * and / tighter than + and -, left to right, and unary minus tightest', () => {
    expect(parseExpression('100 * failed / sent - -2')).toEqual({
      kind: 'binary',
      op: '-',
      left: {
        kind: 'binary',
        op: '/',
        left: {
          kind: 'binary',
          op: '*',
          left: { kind: 'number', value: 100 },
          right: { kind: 'ref', id: 'failed' },
        },
        right: { kind: 'ref', id: 'sent' },
      },
      right: { kind: 'negate', operand: { kind: 'number', value: 2 } },
    });
  });

  it('reads numbers with fractions and exponents, parentheses, lists and comparisons', () => {
    expect(parseExpression('(a + .5) * 1e3 >= 2.5E-1')).toMatchObject({
      kind: 'binary',
      op: '>=',
      left: { op: '*', left: { op: '+', right: { value: 0.5 } }, right: { value: 1000 } },
      right: { value: 0.25 },
    });
    expect(parseExpression('SUM([m1, m_2])')).toEqual({
      kind: 'call',
      fn: 'SUM',
      args: [
        {
          kind: 'array',
          items: [
            { kind: 'ref', id: 'm1' },
            { kind: 'ref', id: 'm_2' },
          ],
        },
      ],
    });
  });

  it('reads FILL with a number, an expression, REPEAT or LINEAR', () => {
    expect(parseExpression('FILL(m1, 0)')).toMatchObject({
      kind: 'fill',
      with: { kind: 'number', value: 0 },
    });
    expect(parseExpression('FILL(m1, REPEAT)')).toMatchObject({ kind: 'fill', with: 'REPEAT' });
    expect(parseExpression('FILL(m1, LINEAR)')).toMatchObject({ kind: 'fill', with: 'LINEAR' });
    expect(parseExpression('FILL(m1, AVG(m1))')).toMatchObject({
      kind: 'fill',
      with: { kind: 'call', fn: 'AVG' },
    });
  });

  it('checks the arity of functions', () => {
    expect(() => parseExpression('RATE(a, b)')).toThrow('RATE takes 1 argument, not 2');
    expect(() => parseExpression('IF(a)')).toThrow('IF takes 2 to 3 arguments, not 1');
    expect(parseExpression('IF(a > 1, a, 0)')).toMatchObject({ kind: 'call', fn: 'IF' });
  });

  it.each([
    ['a +', 'the expression ends too early'],
    ['a b', 'unexpected "b" at character 3'],
    ['(a', 'expected ")" but found the end'],
    ['a % b', 'unexpected "%" at character 3'],
    ['Sent', 'unknown function or id "Sent"'],
    ['sum(a)', 'unexpected "("'],
    ['FILL(a)', 'expected ","'],
    ['REPEAT', 'unknown function or id "REPEAT"'],
    ['1e', 'an exponent needs digits'],
    ['a == b == c', 'unexpected "=="'],
    ['', 'the expression ends too early'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseExpression(text)).toThrow(ExpressionSyntaxError);
    expect(() => parseExpression(text)).toThrow(message);
  });

  it('bounds length, depth and size', () => {
    expect(() => parseExpression('a'.repeat(MAX_EXPRESSION_LENGTH + 1))).toThrow(
      `longer than ${MAX_EXPRESSION_LENGTH} characters`,
    );
    const nested = (n: number) => `${'('.repeat(n)}a${')'.repeat(n)}`;
    expect(parseExpression(nested(MAX_EXPRESSION_DEPTH - 1))).toEqual({ kind: 'ref', id: 'a' });
    expect(() => parseExpression(nested(MAX_EXPRESSION_DEPTH))).toThrow('nested deeper than 32 levels');
    expect(() => parseExpression(`${'-'.repeat(MAX_EXPRESSION_DEPTH)}a`)).toThrow('nested deeper');
    expect(() => parseExpression(`${'ABS('.repeat(1)}a)`)).toThrow('unknown function or id "ABS"');
    const sum = (n: number) => Array.from({ length: n }, () => 'a').join('+');
    expect(() => parseExpression(sum(128))).not.toThrow();
    expect(() => parseExpression(sum(129))).toThrow(`more than ${MAX_EXPRESSION_NODES} terms`);
  });

  it('lists the ids an expression refers to, each once', () => {
    expect(referencedIds(parseExpression('IF(a > b, FILL(c, a), SUM([a, d]) / 2)'))).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
  });
});
