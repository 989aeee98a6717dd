import type { ClickHouseClient } from '@clickhouse/client';
import {
  type InsightStatistic,
  type MetricScope,
  MetricQueryLimitError,
  type MetricSource,
  type SeriesPoint,
  type SeriesRequest,
} from '@notify/domain';
import { type ClickHouseConnectionOptions, openClickHouseClient } from './clickhouse.event-log';
import { quote } from './columns';

/**
 * Requests answered per round trip. A dashboard's 20 series take one query; the query side's
 * maximum of 500 takes ten, each small enough for the server to plan fast.
 */
const REQUESTS_PER_QUERY = 50;

interface Source {
  readonly table: string;
  /** The row's time column, and its epoch seconds. */
  readonly time: string;
  readonly seconds: string;
  /** A request's value over the rows matching `where` (not for percentiles). */
  readonly value: (stat: Exclude<InsightStatistic, { kind: 'percentile' }>, where: string) => string;
  /**
   * The percentiles `levels` (query parameters) of the latencies of the rows matching `where`, as
   * an array: one digest per metric and filters, however many levels are asked of it.
   */
  readonly percentiles: (levels: string, where: string) => string;
  /** Whether a period has a value: some event, or for latency statistics some event with a latency. */
  readonly has: (stat: InsightStatistic, where: string) => string;
}

const counts = (stat: InsightStatistic) => stat.kind === 'Sum' || stat.kind === 'SampleCount';

/** A rollup (insight_minutes or insight_hours): counts summed, latency states merged. */
const rollup = (table: string, column: string): Source => ({
  table,
  time: column,
  seconds: `toUnixTimestamp(${column})`,
  value: (stat, where) => {
    switch (stat.kind) {
      case 'Sum':
      case 'SampleCount':
        return `sumIf(events, ${where})`;
      case 'Average':
        return `sumIf(latency_sum, ${where}) / sumIf(latency_count, ${where})`;
      case 'Minimum':
        return `minMergeIf(latency_min, ${where})`;
      case 'Maximum':
        return `maxMergeIf(latency_max, ${where})`;
    }
  },
  percentiles: (levels, where) => `quantilesTDigestMergeIf(${levels})(latency_digest, ${where})`,
  has: (stat, where) => (counts(stat) ? `countIf(${where}) > 0` : `sumIf(latency_count, ${where}) > 0`),
});
const HOURS = rollup('insight_hours', 'hour');
const MINUTES = rollup('insight_minutes', 'minute');

/** Single metric events of insight_events (kept a day), for periods under a minute. */
const EVENTS: Source = {
  table: 'insight_events',
  time: 'event_time',
  seconds: 'toUnixTimestamp(event_time)',
  value: (stat, where) => {
    switch (stat.kind) {
      case 'Sum':
      case 'SampleCount':
        return `countIf(${where})`;
      case 'Average':
        return `avgIf(latency, ${where})`;
      case 'Minimum':
        return `minIf(latency, ${where})`;
      case 'Maximum':
        return `maxIf(latency, ${where})`;
    }
  },
  percentiles: (levels, where) => `quantilesTDigestIf(${levels})(latency, ${where})`,
  has: (stat, where) =>
    counts(stat) ? `countIf(${where}) > 0` : `countIf(latency IS NOT NULL AND ${where}) > 0`,
};

/**
 * The coarsest store whose rows a period is made of: hours for whole hours, minutes for whole
 * minutes, single events (the last day) below. A row counts when its own start is within the
 * requested range, so with a rollup the range is in effect rounded up to its hours or minutes.
 */
const sourceOf = ({ periodSeconds }: SeriesRequest) =>
  periodSeconds % 3600 === 0 ? HOURS : periodSeconds % 60 === 0 ? MINUTES : EVENTS;

const FILTER_COLUMNS = { Channel: 'channel', NotificationId: 'notification_id', EnvId: 'env_id' } as const;

/**
 * What one series query may take of the engine: it runs inside the Node process when embedded, so
 * a dashboard query must not be able to take the process's memory or its cores.
 */
export interface MetricQueryLimits {
  readonly maxMemoryBytes: number;
  readonly maxSeconds: number;
  readonly maxThreads: number;
}

export const METRIC_QUERY_LIMITS: MetricQueryLimits = {
  maxMemoryBytes: 512 * 1024 * 1024,
  // Under the client's 30 s, so the engine stops the query rather than the client giving up on it.
  maxSeconds: 20,
  maxThreads: 2,
};

/** ClickHouse's names for a query stopped at a limit, in its error's type or message. */
const LIMIT_BREACHES: readonly [RegExp, MetricQueryLimitError['limit']][] = [
  [/MEMORY_LIMIT_EXCEEDED/, 'memory'],
  [/TIMEOUT_EXCEEDED|TOO_SLOW/, 'time'],
];

/**
 * The insights metric store on the rollups of migration 0003 (a ClickHouse server or the embedded
 * engine, the same SQL): the hourly and per-minute rollups, and the last day's single metric
 * events. Every query is bound to the scope's account and environments; every value a request
 * carries travels as a query parameter.
 */
export class ClickHouseMetricSource implements MetricSource {
  private constructor(
    private readonly client: ClickHouseClient,
    private readonly database: string,
    private readonly limits: MetricQueryLimits,
  ) {}

  /** Opens its own connection to a database the event log has already migrated. */
  static async open(
    options: ClickHouseConnectionOptions,
    limits = METRIC_QUERY_LIMITS,
  ): Promise<ClickHouseMetricSource> {
    return new ClickHouseMetricSource(await openClickHouseClient(options), options.database, limits);
  }

  async series(scope: MetricScope, requests: readonly SeriesRequest[]): Promise<SeriesPoint[][]> {
    const series = requests.map((): SeriesPoint[] => []);
    if (scope.envIds.length === 0) return series;
    const groups = groupByScan(requests.map((request, index) => ({ request, index })));
    for (const batch of batches(groups)) {
      for (const row of await this.query(scope, batch)) {
        const group = batch[Number(row.g)] ?? [];
        group.forEach(({ index }, i) => {
          if (row.has[i]) series[index]?.push({ timestampMs: Number(row.t), value: Number(row.v[i]) });
        });
      }
    }
    return series;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /**
   * One scan per group (the requests reading the same source, periods and time range): each
   * request's value is an aggregate over the rows matching its metric and dimensions.
   */
  private async query(scope: MetricScope, groups: readonly Indexed[][]): Promise<Row[]> {
    const params: Record<string, unknown> = { account: scope.accountId, envs: [...scope.envIds] };
    const selects = groups.map((group, g) => {
      const { request: first } = group[0] as Indexed;
      const source = sourceOf(first);
      Object.assign(params, {
        [`g${g}`]: g,
        [`period${g}`]: first.periodSeconds,
        [`start${g}`]: Math.max(0, first.startMs),
        [`end${g}`]: Math.max(0, first.endMs),
      });
      const matches = group.map(({ request }, i) => {
        const name = (what: string) => `${what}${g}_${i}`;
        params[name('metric')] = request.metric;
        const where = [`metric = {${name('metric')}:String}`];
        for (const [dimension, column] of Object.entries(FILTER_COLUMNS)) {
          const value = request.filters[dimension as keyof typeof FILTER_COLUMNS];
          if (value === undefined) continue;
          params[name(column)] = value;
          where.push(`${column} = {${name(column)}:String}`);
        }
        if (request.stat.kind === 'percentile') params[name('p')] = request.stat.p / 100;
        return { stat: request.stat, where: `(${where.join(' AND ')})`, p: name('p') };
      });
      // The levels asked of each metric and filters: one digest answers them all.
      const levels = new Map<string, string[]>();
      for (const m of matches)
        if (m.stat.kind === 'percentile') levels.set(m.where, [...(levels.get(m.where) ?? []), m.p]);
      const value = (m: (typeof matches)[number]) => {
        if (m.stat.kind !== 'percentile') return source.value(m.stat, m.where);
        const shared = levels.get(m.where) ?? [];
        const digest = source.percentiles(shared.map((p) => `{${p}:Float64}`).join(', '), m.where);
        return `${digest}[${shared.indexOf(m.p) + 1}]`;
      };
      // Periods are aligned to the epoch: a point's timestamp is its period's start.
      return `SELECT {g${g}:UInt16} AS g,
          intDiv(${source.seconds}, {period${g}:UInt64}) * {period${g}:UInt64} * 1000 AS t,
          [${matches.map((m) => `toFloat64(${value(m)})`).join(', ')}] AS v,
          [${matches.map((m) => source.has(m.stat, m.where)).join(', ')}] AS has
        FROM ${quote(this.database)}.${quote(source.table)}
        WHERE account_id = {account:String} AND env_id IN {envs:Array(String)}
          AND ${source.time} >= fromUnixTimestamp64Milli(toInt64({start${g}:UInt64}), 'UTC')
          AND ${source.time} < fromUnixTimestamp64Milli(toInt64({end${g}:UInt64}), 'UTC')
          AND (${matches.map((m) => m.where).join(' OR ')})
        GROUP BY t`;
    });
    try {
      const result = await this.client.query({
        query: `SELECT g, t, v, has FROM (${selects.join('\nUNION ALL\n')}) ORDER BY g, t`,
        query_params: params,
        format: 'JSONEachRow',
        // Every query sets them: the embedded engine keeps settings on its connection.
        clickhouse_settings: {
          max_memory_usage: String(this.limits.maxMemoryBytes),
          max_execution_time: this.limits.maxSeconds,
          max_threads: this.limits.maxThreads,
        },
      });
      return await result.json<Row>();
    } catch (error) {
      throw limitBreached(error) ?? error;
    }
  }
}

/** The limit a failed query hit, if it failed on one. */
function limitBreached(error: unknown): MetricQueryLimitError | undefined {
  if (!(error instanceof Error)) return undefined;
  const text = `${(error as { type?: unknown }).type ?? ''} ${error.message}`;
  const breach = LIMIT_BREACHES.find(([pattern]) => pattern.test(text));
  return breach === undefined ? undefined : new MetricQueryLimitError(breach[1]);
}

interface Indexed {
  readonly request: SeriesRequest;
  /** Its place in the call's requests. */
  readonly index: number;
}

/** Requests that one scan answers: the same source, period and time range. */
function groupByScan(requests: readonly Indexed[]): Indexed[][] {
  const groups = new Map<string, Indexed[]>();
  for (const indexed of requests) {
    const { request } = indexed;
    const key = `${sourceOf(request).table}/${request.periodSeconds}/${request.startMs}/${request.endMs}`;
    groups.set(key, [...(groups.get(key) ?? []), indexed]);
  }
  return [...groups.values()];
}

/**
 * Whole groups per query, up to REQUESTS_PER_QUERY requests (a larger group alone), so a scan
 * several requests share is never split across queries.
 */
function batches(groups: readonly Indexed[][]): Indexed[][][] {
  const out: Indexed[][][] = [];
  let current: Indexed[][] = [];
  let size = 0;
  for (const group of groups) {
    if (size > 0 && size + group.length > REQUESTS_PER_QUERY) {
      out.push(current);
      current = [];
      size = 0;
    }
    current.push(group);
    size += group.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

interface Row {
  readonly g: number;
  readonly t: string | number;
  readonly v: readonly (number | string)[];
  readonly has: readonly (boolean | number)[];
}
