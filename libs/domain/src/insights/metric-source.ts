/**
 * What the insights query asks of the metric store, and what it gets back. The query side (request
 * validation, periods, expressions, labels, paging) is pure; the store (ClickHouse rollups) only
 * answers series requests within a tenant's scope.
 */
export const INSIGHT_NAMESPACE = 'Notifications';

export const INSIGHT_METRICS = [
  'Requests',
  'Sent',
  'Delivered',
  'Failed',
  'Opened',
  'Clicked',
  'Ignored',
] as const;
export type InsightMetric = (typeof INSIGHT_METRICS)[number];

/** Metrics whose data points carry a latency (milliseconds from the request, the `*_after` fields). */
export const LATENCY_METRICS: ReadonlySet<InsightMetric> = new Set(['Sent', 'Delivered']);

export const INSIGHT_DIMENSIONS = ['Channel', 'NotificationId', 'EnvId'] as const;
export type InsightDimension = (typeof INSIGHT_DIMENSIONS)[number];

/**
 * `Sum` and `SampleCount` count events. `Average`, `Minimum`, `Maximum` and percentiles are over
 * the events' latency, so only latency metrics take them.
 */
export type InsightStatistic =
  | { readonly kind: 'Sum' | 'SampleCount' | 'Average' | 'Minimum' | 'Maximum' }
  /** `pNN` / `pNN.N`: the percentile, 0 < p < 100. */
  | { readonly kind: 'percentile'; readonly p: number };

export interface SeriesRequest {
  readonly metric: InsightMetric;
  /** A dimension given filters; one left out aggregates over it. `Channel` holds a spec channel name (`EMAIL`, `SMS`, …). */
  readonly filters: Partial<Readonly<Record<InsightDimension, string>>>;
  readonly stat: InsightStatistic;
  /** Seconds; 1, 5, 10, 20 or 30 are served from the raw events (recent data only), 60 and multiples from the per-minute rollups. */
  readonly periodSeconds: number;
  /** Epoch milliseconds, start inclusive and end exclusive; a data point's timestamp is its period's start, aligned to the period from the epoch. */
  readonly startMs: number;
  readonly endMs: number;
}

export interface SeriesPoint {
  readonly timestampMs: number;
  readonly value: number;
}

/** The environments a caller may read, within one account. */
export interface MetricScope {
  readonly accountId: string;
  readonly envIds: readonly string[];
}

export interface MetricSource {
  /**
   * One series per request, in request order: the periods that have events, ascending by time
   * (periods without events are absent; the query side fills them when an expression asks).
   */
  series(scope: MetricScope, requests: readonly SeriesRequest[]): Promise<SeriesPoint[][]>;
}

export const METRIC_SOURCE = Symbol('METRIC_SOURCE');

/**
 * A series query needed more memory or time than the store lets one query take: the request's
 * results answer InternalError with this message, rather than the request failing.
 */
export class MetricQueryLimitError extends Error {
  constructor(readonly limit: 'memory' | 'time') {
    super(
      `The query needed more ${limit} than the metric store allows one query; ask for fewer series, a longer period or a shorter range.`,
    );
    this.name = 'MetricQueryLimitError';
  }
}
