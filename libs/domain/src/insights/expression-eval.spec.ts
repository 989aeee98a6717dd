import { parseExpression } from './expression';
import { evaluateExpression, expressionKind, ExpressionTypeError, type Series } from './expression-eval';

const MIN = 60_000;
const series = (points: Record<number, number>, periodSeconds = 60): Series => ({
  periodSeconds,
  points: new Map(Object.entries(points).map(([minute, v]) => [Number(minute) * MIN, v])),
});
/** The points of a series as {minute: value}. */
const minutes = (s: Series) =>
  Object.fromEntries([...s.points].map(([t, v]) => [t / MIN, v])) as Record<number, number>;

const data: Record<string, Series> = {
  sent: series({ 0: 10, 1: 20, 2: 0, 3: 40 }),
  failed: series({ 0: 1, 1: 5, 2: 3 }),
  gaps: series({ 0: 4, 3: 10 }),
  counter: series({ 0: 0, 1: 60, 2: 180 }),
};
const evaluate = (text: string, range: [number, number] = [0, 4], period = 60) =>
  minutes(
    evaluateExpression(
      parseExpression(text),
      { series: (id) => data[id] as Series, startMs: range[0] * MIN, endMs: range[1] * MIN },
      period,
    ),
  );

describe('evaluateExpression', () => {
  it('fills at the expression period, aggregates long series and gives no infinite values', () => {
    // gaps has points at minutes 0 and 3; over an hour at 600 s, FILL adds minutes 10 … 50.
    expect(evaluate('FILL(gaps, 0)', [0, 60], 600)).toEqual({
      0: 4,
      3: 10,
      10: 0,
      20: 0,
      30: 0,
      40: 0,
      50: 0,
    });
    const huge: Series = {
      periodSeconds: 60,
      points: new Map([
        [0, 1.7e308],
        [2 * MIN, -1.7e308],
      ]),
    };
    const long: Series = {
      periodSeconds: 1,
      points: new Map(Array.from({ length: 300_000 }, (_, i) => [i * 1000, (i % 11) - 5])),
    };
    const context = { series: (id: string) => (id === 'huge' ? huge : long), startMs: 0, endMs: 3 * MIN };
    const evaluated = (text: string, period = 60) => [
      ...evaluateExpression(parseExpression(text), context, period).points.values(),
    ];
    expect(evaluated('FILL(huge, LINEAR)')).toEqual([1.7e308, -1.7e308]);
    expect(evaluated('MIN(long) + MAX(long)', 60)).toEqual([0, 0, 0]);
  });

  it('does arithmetic on the timestamps both series have; a division by zero gives no point', () => {
    expect(evaluate('100 * failed / sent')).toEqual({ 0: 10, 1: 25 });
    expect(evaluate('sent + failed')).toEqual({ 0: 11, 1: 25, 2: 3 });
    expect(evaluate('-sent + 1')).toEqual({ 0: -9, 1: -19, 2: 1, 3: -39 });
    expect(evaluate('sent / 0')).toEqual({});
  });

  it('compares to 1 or 0, and IF picks per timestamp (no point where the condition is false without else)', () => {
    expect(evaluate('sent > 15')).toEqual({ 0: 0, 1: 1, 2: 0, 3: 1 });
    expect(evaluate('sent == 0')).toEqual({ 0: 0, 1: 0, 2: 1, 3: 0 });
    expect(evaluate('IF(sent > 15, sent)')).toEqual({ 1: 20, 3: 40 });
    expect(evaluate('IF(sent > 15, sent, -1)')).toEqual({ 0: -1, 1: 20, 2: -1, 3: 40 });
    expect(evaluate('IF(sent, 100 * failed / sent, 0)')).toEqual({ 0: 10, 1: 25, 2: 0 });
  });

  it('aggregates one series to a number, several series per timestamp (as CloudWatch)', () => {
    // One series: a number, spread over the range at the period.
    expect(evaluate('SUM(sent)')).toEqual({ 0: 70, 1: 70, 2: 70, 3: 70 });
    expect(evaluate('sent * 100 / SUM(sent)')).toEqual({ 0: 100 / 7, 1: 200 / 7, 2: 0, 3: 400 / 7 });
    expect(evaluate('MAX(failed) - MIN(failed)', [0, 2])).toEqual({ 0: 4, 1: 4 });
    // Several: per timestamp, over the values present there.
    expect(evaluate('SUM([sent, failed])')).toEqual({ 0: 11, 1: 25, 2: 3, 3: 40 });
    expect(evaluate('AVG(sent, failed)')).toEqual({ 0: 5.5, 1: 12.5, 2: 1.5, 3: 40 });
    expect(evaluate('MAX(sent, failed, 4)')).toEqual({ 0: 10, 1: 20, 2: 4, 3: 40 });
    expect(evaluate('MIN([failed])')).toEqual({ 0: 1, 1: 5, 2: 3 });
    expect(evaluate('AVG(2, 4)')).toEqual({ 0: 3, 1: 3, 2: 3, 3: 3 });
  });

  it('gives the change per second between consecutive points with RATE', () => {
    expect(evaluate('RATE(counter)')).toEqual({ 1: 1, 2: 2 });
    // Consecutive points, however far apart.
    expect(evaluate('RATE(gaps)')).toEqual({ 3: 6 / 180 });
  });

  it('fills the missing periods of the request with FILL', () => {
    expect(evaluate('FILL(gaps, 0)', [0, 5])).toEqual({ 0: 4, 1: 0, 2: 0, 3: 10, 4: 0 });
    expect(evaluate('FILL(gaps, REPEAT)', [0, 5])).toEqual({ 0: 4, 1: 4, 2: 4, 3: 10, 4: 10 });
    expect(evaluate('FILL(gaps, LINEAR)', [0, 5])).toEqual({ 0: 4, 1: 6, 2: 8, 3: 10 });
    expect(evaluate('FILL(failed, AVG(failed))')).toEqual({ 0: 1, 1: 5, 2: 3, 3: 3 });
    // Filled, the gaps take part in arithmetic with another series.
    expect(evaluate('sent + FILL(gaps, 0)')).toEqual({ 0: 14, 1: 20, 2: 0, 3: 50 });
    // Nothing before the first point to repeat.
    expect(evaluate('FILL(failed, REPEAT)', [0, 4])).toEqual({ 0: 1, 1: 5, 2: 3, 3: 3 });
  });

  it('spreads a number over the range at the period, aligned to it', () => {
    expect(evaluate('1 + 1', [1, 7], 180)).toEqual({ 0: 2, 3: 2, 6: 2 });
    expect(evaluate('1 / 0')).toEqual({});
  });
});

describe('expressionKind', () => {
  it.each([
    ['1 + 2', 'scalar'],
    ['a * 2', 'series'],
    ['SUM(a)', 'scalar'],
    ['SUM(a, b)', 'series'],
    ['SUM([a])', 'series'],
    ['[a, b]', 'array'],
    ['IF(1, 2)', 'scalar'],
    ['IF(a, 2)', 'series'],
  ])('%s gives a %s', (text, kind) => {
    expect(expressionKind(parseExpression(text))).toBe(kind);
  });

  it.each([
    ['RATE(1)', 'RATE takes one series'],
    ['RATE([a])', 'RATE takes one series'],
    ['FILL(1, 0)', 'FILL takes a series'],
    ['FILL(a, b)', 'FILL fills with a number, REPEAT or LINEAR'],
    ['[a] + 1', 'takes a number or one series, not a list'],
    ['SUM([a], b)', 'SUM takes a number or one series'],
    ['[[a]]', 'a list takes a number or one series'],
  ])('refuses %s', (text, message) => {
    expect(() => expressionKind(parseExpression(text))).toThrow(ExpressionTypeError);
    expect(() => expressionKind(parseExpression(text))).toThrow(message);
  });
});
