import type { BinaryOperator, ExpressionNode } from './expression';

/**
 * The interpreter of insight expressions over time-aligned series (see expression.ts for the
 * grammar). As in CloudWatch metric math:
 * - arithmetic and comparisons between two series keep the timestamps both have (FILL first to
 *   keep the others); a comparison is 1 when true and 0 when false;
 * - a number combines with every point of a series;
 * - SUM, AVG, MIN and MAX of one series give one number over all its points; of several series
 *   (`SUM(a, b)` or `SUM([a, b])`) they give one series, each timestamp aggregating the values the
 *   series have there;
 * - a division by zero (or any result that is not a finite number) gives no data point.
 */

/** Points by timestamp (epoch ms), and the period (seconds) they are aligned to. */
export interface Series {
  readonly periodSeconds: number;
  readonly points: ReadonlyMap<number, number>;
}

/** What a sub-expression gives: a number (undefined: none), a series, or several series. */
export type ExpressionKind = 'scalar' | 'series' | 'array';

type Scalar = { readonly kind: 'scalar'; readonly value: number | undefined };
type SeriesValue = { readonly kind: 'series'; readonly series: Series };
type Value =
  Scalar | SeriesValue | { readonly kind: 'array'; readonly items: readonly (Scalar | SeriesValue)[] };

/** A type error in an expression (a function applied to what it does not take). */
export class ExpressionTypeError extends Error {}

/** The kind of value a node gives, checked before anything is evaluated. */
export function expressionKind(node: ExpressionNode): ExpressionKind {
  const notArray = (n: ExpressionNode, where: string): 'scalar' | 'series' => {
    const kind = expressionKind(n);
    if (kind === 'array')
      throw new ExpressionTypeError(`${where} takes a number or one series, not a list of series`);
    return kind;
  };
  const either = (kinds: readonly ('scalar' | 'series')[]) =>
    kinds.includes('series') ? 'series' : 'scalar';
  switch (node.kind) {
    case 'number':
      return 'scalar';
    case 'ref':
      return 'series';
    case 'negate':
      return notArray(node.operand, 'unary minus');
    case 'binary':
      return either([notArray(node.left, `"${node.op}"`), notArray(node.right, `"${node.op}"`)]);
    case 'array':
      for (const item of node.items) notArray(item, 'a list');
      return 'array';
    case 'call':
      return callKind(node, notArray, either);
    case 'fill':
      if (expressionKind(node.operand) !== 'series')
        throw new ExpressionTypeError('FILL takes a series as its first argument');
      if (typeof node.with !== 'string' && expressionKind(node.with) !== 'scalar')
        throw new ExpressionTypeError('FILL fills with a number, REPEAT or LINEAR');
      return 'series';
  }
}

type CallNode = Extract<ExpressionNode, { kind: 'call' }>;

function callKind(
  node: CallNode,
  notArray: (n: ExpressionNode, where: string) => 'scalar' | 'series',
  either: (kinds: readonly ('scalar' | 'series')[]) => 'scalar' | 'series',
): ExpressionKind {
  switch (node.fn) {
    case 'SUM':
    case 'AVG':
    case 'MIN':
    case 'MAX': {
      const [only] = node.args;
      if (node.args.length === 1 && only !== undefined)
        return expressionKind(only) === 'array' ? 'series' : 'scalar';
      return either(node.args.map((arg) => notArray(arg, node.fn)));
    }
    case 'RATE':
      if (node.args[0] === undefined || expressionKind(node.args[0]) !== 'series')
        throw new ExpressionTypeError('RATE takes one series');
      return 'series';
    case 'IF':
      return either(node.args.map((arg) => notArray(arg, 'IF')));
  }
}

export interface EvaluationContext {
  /** The series of a query id the expression refers to (already evaluated). */
  readonly series: (id: string) => Series;
  /** The request's time range (epoch ms, end exclusive): FILL fills the missing periods in it. */
  readonly startMs: number;
  readonly endMs: number;
}

const finite = (value: number): number | undefined => (Number.isFinite(value) ? value : undefined);

function apply(op: BinaryOperator, a: number, b: number): number | undefined {
  switch (op) {
    case '+':
      return finite(a + b);
    case '-':
      return finite(a - b);
    case '*':
      return finite(a * b);
    case '/':
      return b === 0 ? undefined : finite(a / b);
    case '==':
      return a === b ? 1 : 0;
    case '!=':
      return a !== b ? 1 : 0;
    case '<':
      return a < b ? 1 : 0;
    case '<=':
      return a <= b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case '>=':
      return a >= b ? 1 : 0;
  }
}

const seriesOf = (periodSeconds: number, points: Map<number, number>): SeriesValue => ({
  kind: 'series',
  series: { periodSeconds, points: new Map([...points].sort(([a], [b]) => a - b)) },
});

/** The value of a number or series at a timestamp. */
const at = (value: Scalar | SeriesValue, timestamp: number): number | undefined =>
  value.kind === 'scalar' ? value.value : value.series.points.get(timestamp);

const periodOf = (values: readonly (Scalar | SeriesValue)[]): number =>
  values.reduce((longest, v) => Math.max(longest, v.kind === 'series' ? v.series.periodSeconds : 0), 0);

/** The least and the greatest of many values, in a loop (spreading them as arguments overflows the stack). */
export function extremes(values: Iterable<number>): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/**
 * Combines numbers and series timestamp by timestamp: over the timestamps of `timestamps` (the
 * series among `values`, intersected or united), `combine` gets each value there.
 */
function pointwise(
  values: readonly (Scalar | SeriesValue)[],
  mode: 'intersect' | 'union',
  combine: (at: readonly (number | undefined)[]) => number | undefined,
): Scalar | SeriesValue {
  const series = values.filter((v): v is SeriesValue => v.kind === 'series');
  if (series.length === 0) return { kind: 'scalar', value: combine(values.map((v) => at(v, 0))) };
  const stamps = new Set<number>();
  for (const s of series) for (const t of s.series.points.keys()) stamps.add(t);
  const points = new Map<number, number>();
  for (const t of stamps) {
    if (mode === 'intersect' && series.some((s) => !s.series.points.has(t))) continue;
    const value = combine(values.map((v) => at(v, t)));
    if (value !== undefined) points.set(t, value);
  }
  return seriesOf(periodOf(values), points);
}

const AGGREGATES: Record<'SUM' | 'AVG' | 'MIN' | 'MAX', (values: number[]) => number> = {
  SUM: (values) => values.reduce((sum, v) => sum + v, 0),
  AVG: (values) => values.reduce((sum, v) => sum + v, 0) / values.length,
  MIN: (values) => extremes(values).min,
  MAX: (values) => extremes(values).max,
};

function aggregate(fn: keyof typeof AGGREGATES, values: readonly (number | undefined)[]): number | undefined {
  const present = values.filter((v): v is number => v !== undefined);
  return present.length === 0 ? undefined : finite(AGGREGATES[fn](present));
}

function rate(series: Series): SeriesValue {
  const points = new Map<number, number>();
  let previous: [number, number] | undefined;
  for (const [t, v] of series.points) {
    if (previous !== undefined) {
      const change = finite((v - previous[1]) / ((t - previous[0]) / 1000));
      if (change !== undefined) points.set(t, change);
    }
    previous = [t, v];
  }
  return seriesOf(series.periodSeconds, points);
}

/** Fills the periods of the range (at the expression's own period) that have no point. */
function fill(series: Series, filler: number | undefined | 'REPEAT' | 'LINEAR', context: Evaluation) {
  const step = context.periodSeconds * 1000;
  const points = new Map(series.points);
  const known = [...series.points.keys()];
  let next = 0;
  let previous: number | undefined;
  for (let t = Math.floor(context.startMs / step) * step; t < context.endMs; t += step) {
    while (next < known.length && (known[next] as number) <= t) previous = known[next++];
    if (points.has(t)) continue;
    if (filler === 'REPEAT') {
      if (previous !== undefined) points.set(t, series.points.get(previous) as number);
    } else if (filler === 'LINEAR') {
      const after = known[next];
      if (previous === undefined || after === undefined) continue;
      const from = series.points.get(previous) as number;
      const to = series.points.get(after) as number;
      const value = finite(from + ((to - from) * (t - previous)) / (after - previous));
      if (value !== undefined) points.set(t, value);
    } else if (filler !== undefined) {
      points.set(t, filler);
    }
  }
  return seriesOf(Math.min(series.periodSeconds, context.periodSeconds), points);
}

function single(value: Value): Scalar | SeriesValue {
  // expressionKind has refused lists everywhere but inside SUM, AVG, MIN and MAX.
  if (value.kind === 'array') throw new ExpressionTypeError('a list of series where one value belongs');
  return value;
}

/** The context, and the period of the expression being evaluated (what FILL fills at). */
type Evaluation = EvaluationContext & { readonly periodSeconds: number };

function evaluateNode(node: ExpressionNode, context: Evaluation): Value {
  const value = (n: ExpressionNode) => single(evaluateNode(n, context));
  switch (node.kind) {
    case 'number':
      return { kind: 'scalar', value: node.value };
    case 'ref':
      return { kind: 'series', series: context.series(node.id) };
    case 'negate':
      return pointwise([value(node.operand)], 'intersect', ([v]) => (v === undefined ? undefined : -v));
    case 'binary':
      return pointwise([value(node.left), value(node.right)], 'intersect', ([a, b]) =>
        a === undefined || b === undefined ? undefined : apply(node.op, a, b),
      );
    case 'array':
      return { kind: 'array', items: node.items.map(value) };
    case 'fill': {
      const operand = value(node.operand);
      if (operand.kind !== 'series') throw new ExpressionTypeError('FILL takes a series');
      const filler = typeof node.with === 'string' ? node.with : at(value(node.with), 0);
      return fill(operand.series, filler, context);
    }
    case 'call':
      switch (node.fn) {
        case 'RATE': {
          const operand = value(node.args[0] as ExpressionNode);
          if (operand.kind !== 'series') throw new ExpressionTypeError('RATE takes a series');
          return rate(operand.series);
        }
        case 'IF': {
          const [condition, then, otherwise] = node.args.map(value) as [
            Scalar | SeriesValue,
            Scalar | SeriesValue,
            (Scalar | SeriesValue) | undefined,
          ];
          const values = otherwise === undefined ? [condition, then] : [condition, then, otherwise];
          return pointwise(values, 'union', ([c, a, b]) => (c === undefined ? undefined : c !== 0 ? a : b));
        }
        case 'SUM':
        case 'AVG':
        case 'MIN':
        case 'MAX': {
          const fn = node.fn;
          const [only] = node.args;
          if (node.args.length === 1 && only !== undefined) {
            const operand = evaluateNode(only, context);
            if (operand.kind === 'series')
              return { kind: 'scalar', value: aggregate(fn, [...operand.series.points.values()]) };
            if (operand.kind === 'scalar') return operand;
            return pointwise(operand.items, 'union', (values) => aggregate(fn, values));
          }
          return pointwise(node.args.map(value), 'union', (values) => aggregate(fn, values));
        }
      }
  }
}

/**
 * Evaluates a checked expression (see expressionKind) to a series. One that gives a number is that
 * number at every period of the request's range, `periodSeconds` apart.
 */
export function evaluateExpression(
  node: ExpressionNode,
  context: EvaluationContext,
  periodSeconds: number,
): Series {
  const result = single(evaluateNode(node, { ...context, periodSeconds }));
  if (result.kind === 'series') return result.series;
  const points = new Map<number, number>();
  const step = periodSeconds * 1000;
  if (result.value !== undefined)
    for (let t = Math.floor(context.startMs / step) * step; t < context.endMs; t += step)
      points.set(t, result.value);
  return { periodSeconds, points };
}
