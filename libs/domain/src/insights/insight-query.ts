import { InvalidRequestError } from '@notify/util';
import { CHANNELS } from '../channels/channel';
import { canonicalJson } from '../sends/canonical-json';
import {
  type ExpressionNode,
  expressionSize,
  ExpressionSyntaxError,
  parseExpression,
  QUERY_ID_PATTERN,
  referencedIds,
} from './expression';
import { expressionKind, ExpressionTypeError } from './expression-eval';
import {
  isValidPeriod,
  MAX_PERIOD_SECONDS,
  MAX_PERIODS_PER_QUERY,
  periodMultipleForAge,
  periodServesAge,
} from './insight-periods';
import {
  INSIGHT_DIMENSIONS,
  INSIGHT_METRICS,
  INSIGHT_NAMESPACE,
  type InsightDimension,
  type InsightMetric,
  type InsightStatistic,
  LATENCY_METRICS,
  type SeriesRequest,
} from './metric-source';

/** Size bounds of the `POST /insights` body, checked as it is parsed. */
export const InsightLimits = {
  queries: 500,
  dimensions: 30,
  /** Ids, dimension names, namespaces, metric names, statistics, units, account ids. */
  name: 255,
  dimensionValue: 1_024,
  label: 1_024,
  /** `MaxDatapoints` at most, and when it is left out. */
  maxDatapoints: 100_800,
  nextToken: 1_024,
  /**
   * The work of a request, summed over its queries: each costs the points it can hold between
   * StartTime and EndTime (at the finest period it can produce) times its terms (1 for a metric),
   * since each term of an expression is one pass over its points. It bounds the memory and the
   * time a request takes.
   */
  workPerRequest: 2_500_000,
} as const;

/** The percentile statistics, as the query takes them (one description for the docs, the schema and the refusal). */
export const PERCENTILE_FORMAT =
  'pNN or pNN.NN: p, then a number above 0 and below 100 with at most two decimals (p50, p99, p99.95)';

/** The earliest and latest instants StartTime and EndTime may name. */
const EARLIEST_MS = Date.parse('1970-01-01T00:00:00Z');
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z');

export const INSIGHT_UNITS = [
  'Bits',
  'Bits/Second',
  'Bytes',
  'Bytes/Second',
  'Count',
  'Count/Second',
  'Gigabits',
  'Gigabits/Second',
  'Gigabytes',
  'Gigabytes/Second',
  'Kilobits',
  'Kilobits/Second',
  'Kilobytes',
  'Kilobytes/Second',
  'Megabits',
  'Megabits/Second',
  'Megabytes',
  'Megabytes/Second',
  'Microseconds',
  'Milliseconds',
  'None',
  'Percent',
  'Seconds',
  'Terabits',
  'Terabits/Second',
  'Terabytes',
  'Terabytes/Second',
] as const;

export const SCAN_ORDERS = ['TimestampDescending', 'TimestampAscending'] as const;
export type ScanOrder = (typeof SCAN_ORDERS)[number];

/** The `POST /insights` body as parsed (types and sizes checked; the rules below check the rest). */
export interface InsightsRequestBody {
  readonly StartTime: string;
  readonly EndTime: string;
  readonly MetricDataQueries: readonly InsightQueryBody[];
  readonly NextToken?: string | undefined;
  readonly ScanBy?: string | undefined;
  readonly MaxDatapoints?: number | undefined;
  readonly LabelOptions?: { readonly Timezone?: string | undefined } | undefined;
}

export interface InsightDimensionBody {
  readonly Name?: string | undefined;
  readonly Value?: string | undefined;
}

export interface InsightMetricStatBody {
  readonly Metric?:
    | {
        readonly Namespace?: string | undefined;
        readonly MetricName?: string | undefined;
        readonly Dimensions?: readonly InsightDimensionBody[] | undefined;
      }
    | undefined;
  readonly Period?: number | undefined;
  readonly Stat?: string | undefined;
  readonly Unit?: string | undefined;
}

export interface InsightQueryBody {
  readonly Id?: string | undefined;
  readonly MetricStat?: InsightMetricStatBody | undefined;
  readonly Expression?: string | undefined;
  readonly Label?: string | undefined;
  readonly ReturnData?: boolean | undefined;
  readonly Period?: number | undefined;
  readonly AccountId?: string | undefined;
}

interface PlannedQueryBase {
  readonly id: string;
  /** The query's position in MetricDataQueries. */
  readonly index: number;
  readonly label: string;
  readonly returnData: boolean;
  readonly periodSeconds: number;
  /** Set when the period is too fine for data as old as StartTime: the query has no data points. */
  readonly periodTooFine?: string;
}

export interface PlannedMetric extends PlannedQueryBase {
  readonly kind: 'metric';
  readonly request: SeriesRequest;
  /** `AccountId` names an account other than the caller's: no data, StatusCode Forbidden. */
  readonly forbidden: boolean;
}

export interface PlannedExpression extends PlannedQueryBase {
  readonly kind: 'expression';
  readonly expression: ExpressionNode;
}

export type PlannedQuery = PlannedMetric | PlannedExpression;

export interface InsightsPlan {
  /** Every query, in an order where each comes after the queries its expression refers to. */
  readonly queries: readonly PlannedQuery[];
  /** The ids of the results, in request order (queries with ReturnData false left out). */
  readonly returned: readonly string[];
  readonly startMs: number;
  readonly endMs: number;
  readonly scanBy: ScanOrder;
  readonly maxDatapoints: number;
  /** `LabelOptions.Timezone` in minutes east of UTC (0 when left out). */
  readonly timezoneOffsetMinutes: number;
}

/** A rule the body breaks: 400 VALIDATION_ERROR whose message starts with the field's path. */
export function invalidField(path: string, message: string, fix?: string): InvalidRequestError {
  return new InvalidRequestError({
    code: 'VALIDATION_ERROR',
    message: `${path}: ${message}`,
    fix: fix ?? 'Correct the field; see docs/api-behaviour.md (Insights).',
  });
}

/** ISO 8601 date-times with a zone (`Z` or an offset), as StartTime and EndTime take them. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Whether the calendar fields are in range (Date.parse rolls 2026-02-30 over to March). */
function fieldsInRange(text: string): boolean {
  const [year, month, day, hour, minute, second] = [0, 5, 8, 11, 14, 17].map((at, i) =>
    Number(text.slice(at, at + (i === 0 ? 4 : 2)) || '0'),
  ) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59
  );
}

function parseTime(path: string, text: string): number {
  const ms = ISO_DATE_TIME.test(text) && fieldsInRange(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(ms))
    throw invalidField(path, 'expected an ISO 8601 date-time with a zone, such as 2026-01-05T09:00:00Z');
  if (ms < EARLIEST_MS || ms > LATEST_MS)
    throw invalidField(path, 'must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z');
  return ms;
}

/** `+HHMM` or `-HHMM`, as CloudWatch's LabelOptions take it. */
function parseTimezone(text: string | undefined): number {
  if (text === undefined) return 0;
  const match = /^([+-])(\d{2})(\d{2})$/.exec(text);
  const hours = Number(match?.[2]);
  const minutes = Number(match?.[3]);
  if (match === null || hours > 23 || minutes > 59)
    throw invalidField('LabelOptions.Timezone', 'expected +HHMM or -HHMM, such as +0130 or -0500');
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

const PERCENTILE = /^p(\d{1,2}(\.\d{1,2})?)$/;

function parseStatistic(path: string, text: string | undefined, metric: InsightMetric): InsightStatistic {
  if (text === undefined) throw invalidField(path, 'required');
  let stat: InsightStatistic | undefined;
  if (
    text === 'Sum' ||
    text === 'SampleCount' ||
    text === 'Average' ||
    text === 'Minimum' ||
    text === 'Maximum'
  )
    stat = { kind: text };
  const percentile = PERCENTILE.exec(text);
  const p = Number(percentile?.[1]);
  if (percentile !== null && p > 0 && p < 100) stat = { kind: 'percentile', p };
  if (stat === undefined)
    throw invalidField(
      path,
      `"${text}" is not a statistic: Sum, SampleCount, Average, Minimum, Maximum or a percentile (${PERCENTILE_FORMAT})`,
    );
  if (stat.kind !== 'Sum' && stat.kind !== 'SampleCount' && !LATENCY_METRICS.has(metric))
    throw invalidField(
      path,
      `${text} is over delivery latency, which only ${[...LATENCY_METRICS].join(' and ')} carry; ${metric} takes Sum or SampleCount`,
    );
  return stat;
}

/**
 * A valid period of at most a year (longer than the range is fine: the range widens to whole
 * periods), at most MAX_PERIODS_PER_QUERY of them in the range.
 */
function checkPeriod(path: string, period: number | undefined, rangeMs: number): number {
  if (period === undefined) throw invalidField(path, 'required');
  if (!isValidPeriod(period))
    throw invalidField(path, `${period} is not a period: 1, 5, 10, 20, 30, 60 or a multiple of 60 seconds`);
  if (period > MAX_PERIOD_SECONDS)
    throw invalidField(path, `at most ${MAX_PERIOD_SECONDS} seconds (365 days)`);
  if (rangeMs / (period * 1000) > MAX_PERIODS_PER_QUERY)
    throw invalidField(
      path,
      `${period} s over this time range gives more than ${MAX_PERIODS_PER_QUERY} periods`,
      'Use a longer period or a shorter range between StartTime and EndTime.',
    );
  return period;
}

/** ASCII with at least one non-whitespace character and no control characters. */
function isDimensionText(text: string): boolean {
  let visible = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code >= 127) return false;
    if (code !== 32) visible = true;
  }
  return visible;
}

type Filters = Partial<Record<InsightDimension, string>>;

function parseDimensions(
  path: string,
  dimensions: readonly InsightDimensionBody[],
): { filters: Filters; values: string[] } {
  const filters: Filters = {};
  const values: string[] = [];
  dimensions.forEach((dimension, d) => {
    const at = `${path}[${d}]`;
    const { Name: name, Value: value } = dimension;
    if (name === undefined) throw invalidField(`${at}.Name`, 'required');
    if (!isDimensionText(name) || name.startsWith(':'))
      throw invalidField(
        `${at}.Name`,
        'ASCII only, with a non-whitespace character, no control characters and no leading colon',
      );
    if (!(INSIGHT_DIMENSIONS as readonly string[]).includes(name))
      throw invalidField(`${at}.Name`, `"${name}" is not a dimension: ${INSIGHT_DIMENSIONS.join(', ')}`);
    const known = name as InsightDimension;
    if (filters[known] !== undefined) throw invalidField(`${at}.Name`, `${name} is given twice`);
    if (value === undefined) throw invalidField(`${at}.Value`, 'required');
    if (!isDimensionText(value))
      throw invalidField(
        `${at}.Value`,
        'ASCII only, with a non-whitespace character and no control characters',
      );
    if (known === 'Channel' && !(CHANNELS as readonly string[]).includes(value))
      throw invalidField(`${at}.Value`, `"${value}" is not a channel: ${CHANNELS.join(', ')}`);
    filters[known] = value;
    values.push(value);
  });
  return { filters, values };
}

interface Context {
  readonly nowMs: number;
  readonly accountId: string;
  readonly startMs: number;
  readonly endMs: number;
}

function tooFine(period: number, context: Context): string | undefined {
  const age = context.nowMs - context.startMs;
  if (periodServesAge(period, age)) return undefined;
  // One text per rule (not per period), so that the messages an expression gathers stay few.
  return `data as old as StartTime takes a Period that is a multiple of ${periodMultipleForAge(age)} seconds; a finer one returns no data points`;
}

function planMetric(query: InsightQueryBody, index: number, id: string, context: Context): PlannedMetric {
  const path = `MetricDataQueries[${index}].MetricStat`;
  const stat = query.MetricStat ?? {};
  const metric = stat.Metric;
  if (metric === undefined) throw invalidField(`${path}.Metric`, 'required');
  if (metric.Namespace !== INSIGHT_NAMESPACE)
    throw invalidField(`${path}.Metric.Namespace`, `the namespace is ${INSIGHT_NAMESPACE}`);
  const name = metric.MetricName;
  if (name === undefined || !(INSIGHT_METRICS as readonly string[]).includes(name))
    throw invalidField(
      `${path}.Metric.MetricName`,
      `${name === undefined ? 'required' : `"${name}" is not a metric`}: ${INSIGHT_METRICS.join(', ')}`,
    );
  const metricName = name as InsightMetric;
  const { filters, values } = parseDimensions(`${path}.Metric.Dimensions`, metric.Dimensions ?? []);
  const periodSeconds = checkPeriod(`${path}.Period`, stat.Period, context.endMs - context.startMs);
  // The query-level Period of a metric query is checked, but MetricStat.Period is what it uses
  // (a range of 0 skips the bound on the number of periods, checked above).
  if (query.Period !== undefined) checkPeriod(`MetricDataQueries[${index}].Period`, query.Period, 0);
  const statistic = parseStatistic(`${path}.Stat`, stat.Stat, metricName);
  if (stat.Unit !== undefined && !(INSIGHT_UNITS as readonly string[]).includes(stat.Unit))
    throw invalidField(`${path}.Unit`, `"${stat.Unit}" is not a unit: ${INSIGHT_UNITS.join(', ')}`);
  const step = periodSeconds * 1000;
  const periodTooFine = tooFine(periodSeconds, context);
  return {
    kind: 'metric',
    id,
    index,
    label: query.Label ?? [metricName, ...values].join(' '),
    returnData: query.ReturnData !== false,
    periodSeconds,
    ...(periodTooFine === undefined ? {} : { periodTooFine }),
    forbidden: query.AccountId !== undefined && query.AccountId !== context.accountId,
    request: {
      metric: metricName,
      filters,
      stat: statistic,
      periodSeconds,
      startMs: Math.floor(context.startMs / step) * step,
      endMs: Math.ceil(context.endMs / step) * step,
    },
  };
}

function parseQueryExpression(path: string, text: string): ExpressionNode {
  try {
    const node = parseExpression(text);
    if (expressionKind(node) === 'array')
      throw new ExpressionTypeError(
        'the expression gives a list of series; aggregate it with SUM, AVG, MIN or MAX',
      );
    return node;
  } catch (error) {
    if (error instanceof ExpressionSyntaxError || error instanceof ExpressionTypeError)
      throw invalidField(
        path,
        error.message,
        'See docs/api-behaviour.md (Insights) for the expression grammar.',
      );
    throw error;
  }
}

/** Orders queries so that each expression comes after what it refers to; a cycle is a 400. */
function evaluationOrder(queries: readonly PlannedQuery[]): PlannedQuery[] {
  const byId = new Map(queries.map((q) => [q.id, q]));
  const state = new Map<string, 'visiting' | 'done'>();
  const order: PlannedQuery[] = [];
  const visit = (query: PlannedQuery, trail: readonly string[]): void => {
    if (state.get(query.id) === 'done') return;
    if (state.get(query.id) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(query.id)), query.id].join(' → ');
      throw invalidField(
        `MetricDataQueries[${query.index}].Expression`,
        `the expressions refer to each other in a cycle: ${cycle}`,
      );
    }
    state.set(query.id, 'visiting');
    if (query.kind === 'expression')
      for (const id of referencedIds(query.expression))
        visit(byId.get(id) as PlannedQuery, [...trail, query.id]);
    state.set(query.id, 'done');
    order.push(query);
  };
  for (const query of queries) visit(query, []);
  return order;
}

/**
 * Checks every rule of a `POST /insights` body and plans it: the series each metric query asks the
 * metric store for, and the order expressions are evaluated in. A broken rule throws a 400 naming
 * the field (such as `MetricDataQueries[3].MetricStat.Period`).
 */
export function planInsightsQuery(
  body: InsightsRequestBody,
  caller: { readonly nowMs: number; readonly accountId: string },
): InsightsPlan {
  const startMs = parseTime('StartTime', body.StartTime);
  const endMs = parseTime('EndTime', body.EndTime);
  if (startMs >= endMs) throw invalidField('StartTime', 'must be before EndTime');
  const context: Context = { ...caller, startMs, endMs };
  const scanBy = body.ScanBy ?? 'TimestampDescending';
  if (!(SCAN_ORDERS as readonly string[]).includes(scanBy))
    throw invalidField('ScanBy', `expected ${SCAN_ORDERS.join(' or ')}`);
  const maxDatapoints = body.MaxDatapoints ?? InsightLimits.maxDatapoints;
  if (!Number.isInteger(maxDatapoints) || maxDatapoints < 1 || maxDatapoints > InsightLimits.maxDatapoints)
    throw invalidField('MaxDatapoints', `expected a whole number from 1 to ${InsightLimits.maxDatapoints}`);
  const timezoneOffsetMinutes = parseTimezone(body.LabelOptions?.Timezone);
  if (body.MetricDataQueries.length === 0) throw invalidField('MetricDataQueries', 'at least one query');

  const ids = new Map<string, number>();
  body.MetricDataQueries.forEach((query, index) => {
    const path = `MetricDataQueries[${index}].Id`;
    if (query.Id === undefined) throw invalidField(path, 'required');
    if (!QUERY_ID_PATTERN.test(query.Id))
      throw invalidField(path, 'a lowercase letter first, then letters, digits and underscores');
    if (ids.has(query.Id))
      throw invalidField(path, `"${query.Id}" is also the id of MetricDataQueries[${ids.get(query.Id)}]`);
    ids.set(query.Id, index);
  });

  const metricPeriods: number[] = [];
  const planned: PlannedQuery[] = [];
  const expressions: { query: InsightQueryBody; index: number; id: string; node: ExpressionNode }[] = [];
  body.MetricDataQueries.forEach((query, index) => {
    const id = query.Id as string;
    const hasStat = query.MetricStat !== undefined;
    if (hasStat === (query.Expression !== undefined))
      throw invalidField(
        `MetricDataQueries[${index}]`,
        'give either Expression or MetricStat, not both and not neither',
      );
    if (hasStat) {
      const metric = planMetric(query, index, id, context);
      metricPeriods.push(metric.periodSeconds);
      planned.push(metric);
      return;
    }
    const path = `MetricDataQueries[${index}].Expression`;
    const node = parseQueryExpression(path, query.Expression as string);
    for (const ref of referencedIds(node)) {
      if (!ids.has(ref)) throw invalidField(path, `refers to "${ref}", which is not the Id of a query`);
      if (ref === id) throw invalidField(path, 'refers to its own Id');
    }
    expressions.push({ query, index, id, node });
  });
  for (const { query, index, id, node } of expressions) {
    // An expression's period matters only when it gives a number (one point per period) or
    // fills: the query's Period, else the finest period of the request's metrics.
    const period = checkPeriod(
      `MetricDataQueries[${index}].Period`,
      query.Period ?? metricPeriods.reduce((finest, p) => Math.min(finest, p), metricPeriods[0] ?? 60),
      endMs - startMs,
    );
    const periodTooFine = tooFine(period, context);
    planned.push({
      kind: 'expression',
      id,
      index,
      label: query.Label ?? (query.Expression as string),
      returnData: query.ReturnData !== false,
      periodSeconds: period,
      ...(periodTooFine === undefined ? {} : { periodTooFine }),
      expression: node,
    });
  }
  planned.sort((a, b) => a.index - b.index);
  const returned = planned.filter((q) => q.returnData).map((q) => q.id);
  if (returned.length === 0)
    throw invalidField('MetricDataQueries', 'at least one query must return data (ReturnData not false)');
  const queries = evaluationOrder(planned);
  checkWork(queries, endMs - startMs);
  return {
    queries,
    returned,
    startMs,
    endMs,
    scanBy: scanBy as ScanOrder,
    maxDatapoints,
    timezoneOffsetMinutes,
  };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Refuses a request whose work exceeds InsightLimits.workPerRequest (see there), naming the query
 * where it does. A series' points are aligned to its period, so the finest period an expression
 * can produce is the greatest common divisor of its own period (a number answered at every
 * period, FILL) and those of what it refers to; over the range, widened to whole periods, that
 * is at most one point more than the range holds.
 */
function checkWork(queries: readonly PlannedQuery[], rangeMs: number): void {
  const grain = new Map<string, number>();
  let work = 0;
  for (const query of queries) {
    let finest = query.periodSeconds;
    if (query.kind === 'expression')
      for (const id of referencedIds(query.expression)) finest = gcd(finest, grain.get(id) as number);
    grain.set(query.id, finest);
    const points = Math.ceil(rangeMs / (finest * 1000)) + 1;
    work += points * (query.kind === 'expression' ? expressionSize(query.expression) : 1);
    if (work > InsightLimits.workPerRequest)
      throw invalidField(
        `MetricDataQueries[${query.index}]${query.kind === 'expression' ? '.Expression' : ''}`,
        `the queries up to this one hold up to ${work} points × terms between StartTime and EndTime; a request may hold at most ${InsightLimits.workPerRequest}`,
        'Use fewer or shorter expressions, fewer queries, longer periods or a shorter time range.',
      );
  }
}

/** One key per distinct series request, so a request asks the store for each series once. */
export const seriesRequestKey = (request: SeriesRequest): string => canonicalJson(request);
