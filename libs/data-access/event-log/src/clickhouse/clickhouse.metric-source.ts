import type { ClickHouseClient } from '@clickhouse/client';
import type { InsightStatistic, MetricScope, MetricSource, SeriesPoint, SeriesRequest } from '@notify/domain';
import { type ClickHouseEventLogOptions, openClickHouseClient } from './clickhouse.event-log';
import { quote } from './columns';

/**
 * Requests answered per round trip: one UNION ALL query each. A dashboard's 20 series take one
 * query; the query side's maximum of 500 takes ten, each small enough for the server to plan fast.
 */
const REQUESTS_PER_QUERY = 50;

/** The rollups hold minutes: a period that is a whole number of minutes is read from them. */
const fromRollup = (request: SeriesRequest) => request.periodSeconds % 60 === 0;

interface Source {
  readonly table: string;
  /** The row's time, in epoch seconds, and the column it filters on. */
  readonly seconds: string;
  readonly time: string;
  readonly value: (stat: InsightStatistic, p: string) => string;
  /** Latency statistics only have periods where some event carried a latency. */
  readonly hasLatency: string;
}

/** Minutes of insight_minutes: counts summed, latency states merged. */
const ROLLUP: Source = {
  table: 'insight_minutes',
  seconds: 'toUnixTimestamp(minute)',
  time: 'minute',
  value: (stat, p) => {
    switch (stat.kind) {
      case 'Sum':
      case 'SampleCount':
        return 'sum(events)';
      case 'Average':
        return 'sum(latency_sum) / sum(latency_count)';
      case 'Minimum':
        return 'minMerge(latency_min)';
      case 'Maximum':
        return 'maxMerge(latency_max)';
      case 'percentile':
        return `quantileTDigestMerge({${p}:Float64})(latency_digest)`;
    }
  },
  hasLatency: 'sum(latency_count) > 0',
};

/** Single metric events of insight_events (kept a day), for periods under a minute. */
const EVENTS: Source = {
  table: 'insight_events',
  seconds: 'toUnixTimestamp(event_time)',
  time: 'event_time',
  value: (stat, p) => {
    switch (stat.kind) {
      case 'Sum':
      case 'SampleCount':
        return 'count()';
      case 'Average':
        return 'avg(latency)';
      case 'Minimum':
        return 'min(latency)';
      case 'Maximum':
        return 'max(latency)';
      case 'percentile':
        return `quantileTDigest({${p}:Float64})(latency)`;
    }
  },
  hasLatency: 'count(latency) > 0',
};

const FILTER_COLUMNS = { Channel: 'channel', NotificationId: 'notification_id', EnvId: 'env_id' } as const;

/**
 * The insights metric store on the rollups of migration 0003 (a ClickHouse server or the embedded
 * engine, the same SQL). Every query is bound to the scope's account and environments; every value
 * a request carries travels as a query parameter.
 */
export class ClickHouseMetricSource implements MetricSource {
  private constructor(
    private readonly client: ClickHouseClient,
    private readonly database: string,
  ) {}

  /** Opens its own connection to a database the event log has already migrated. */
  static async open(options: ClickHouseEventLogOptions): Promise<ClickHouseMetricSource> {
    return new ClickHouseMetricSource(await openClickHouseClient(options), options.database);
  }

  async series(scope: MetricScope, requests: readonly SeriesRequest[]): Promise<SeriesPoint[][]> {
    const series = requests.map((): SeriesPoint[] => []);
    if (scope.envIds.length === 0) return series;
    for (let first = 0; first < requests.length; first += REQUESTS_PER_QUERY) {
      const chunk = requests.slice(first, first + REQUESTS_PER_QUERY);
      for (const row of await this.query(scope, chunk)) {
        series[first + Number(row.q)]?.push({ timestampMs: Number(row.t), value: Number(row.v) });
      }
    }
    return series;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async query(scope: MetricScope, requests: readonly SeriesRequest[]): Promise<Row[]> {
    const params: Record<string, unknown> = { account: scope.accountId, envs: [...scope.envIds] };
    const selects = requests.map((request, i) => {
      const source = fromRollup(request) ? ROLLUP : EVENTS;
      const name = (what: string) => `${what}${i}`;
      params[name('q')] = i;
      params[name('metric')] = request.metric;
      params[name('period')] = request.periodSeconds;
      params[name('start')] = request.startMs;
      params[name('end')] = request.endMs;
      const where = [
        'account_id = {account:String}',
        'env_id IN {envs:Array(String)}',
        `metric = {${name('metric')}:String}`,
        `${source.time} >= fromUnixTimestamp64Milli({${name('start')}:Int64}, 'UTC')`,
        `${source.time} < fromUnixTimestamp64Milli({${name('end')}:Int64}, 'UTC')`,
      ];
      for (const [dimension, column] of Object.entries(FILTER_COLUMNS)) {
        const value = request.filters[dimension as keyof typeof FILTER_COLUMNS];
        if (value === undefined) continue;
        params[name(column)] = value;
        where.push(`${column} = {${name(column)}:String}`);
      }
      const { stat } = request;
      if (stat.kind === 'percentile') params[name('p')] = stat.p / 100;
      const latency = stat.kind === 'Sum' || stat.kind === 'SampleCount' ? '' : `HAVING ${source.hasLatency}`;
      // Periods are aligned to the epoch: a point's timestamp is its period's start.
      return `SELECT {${name('q')}:UInt16} AS q,
          intDiv(${source.seconds}, {${name('period')}:UInt32}) * {${name('period')}:UInt32} * 1000 AS t,
          toFloat64(${source.value(stat, name('p'))}) AS v
        FROM ${quote(this.database)}.${quote(source.table)}
        WHERE ${where.join(' AND ')}
        GROUP BY t ${latency}`;
    });
    const result = await this.client.query({
      query: `SELECT q, t, v FROM (${selects.join('\nUNION ALL\n')}) ORDER BY q, t`,
      query_params: params,
      format: 'JSONEachRow',
    });
    return result.json<Row>();
  }
}

interface Row {
  readonly q: number;
  readonly t: string | number;
  readonly v: number;
}
