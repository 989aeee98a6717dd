import {
  type Channel,
  type InsightDimension,
  type InsightMetric,
  type MetricScope,
  type MetricSource,
  type SeriesPoint,
  type SeriesRequest,
} from '@notify/domain';

/** One countable fact, as the metric store would roll it up: a message sent, failed, opened… */
export interface MetricEvent {
  readonly accountId: string;
  readonly envId: string;
  readonly metric: InsightMetric;
  readonly channel: Channel;
  readonly notificationId: string;
  readonly timeMs: number;
  /** Milliseconds from the request (latency metrics only). */
  readonly latencyMs?: number;
}

/** A metric event of account `acc-1`, environment `env-1`, an EMAIL `Sent` of type `welcome` unless told. */
export const aMetricEvent = (event: Partial<MetricEvent> = {}): MetricEvent => ({
  accountId: 'acc-1',
  envId: 'env-1',
  metric: 'Sent',
  channel: 'EMAIL',
  notificationId: 'welcome',
  timeMs: Date.parse('2026-01-05T09:00:00.000Z'),
  ...event,
});

/** Nearest rank: the smallest value with at least p % of the values at or below it. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function statistic(request: SeriesRequest, events: readonly MetricEvent[]): number | undefined {
  if (request.stat.kind === 'Sum' || request.stat.kind === 'SampleCount') return events.length;
  const latencies = events
    .flatMap((e) => (e.latencyMs === undefined ? [] : [e.latencyMs]))
    .sort((a, b) => a - b);
  if (latencies.length === 0) return undefined;
  switch (request.stat.kind) {
    case 'Average':
      return latencies.reduce((a, b) => a + b, 0) / latencies.length;
    case 'Minimum':
      return latencies[0];
    case 'Maximum':
      return latencies[latencies.length - 1];
    case 'percentile':
      return percentile(latencies, request.stat.p);
  }
}

const dimensionOf: Record<InsightDimension, (event: MetricEvent) => string> = {
  Channel: (e) => e.channel,
  NotificationId: (e) => e.notificationId,
  EnvId: (e) => e.envId,
};

/**
 * The metric store in memory: series computed from the events added, as the port describes them
 * (periods with events only, ascending, aligned to the period from the epoch). It records what it
 * was asked, so tests can check that a query asks each series once.
 */
export class FakeMetricSource implements MetricSource {
  private readonly events: MetricEvent[] = [];
  readonly asked: { scope: MetricScope; requests: readonly SeriesRequest[] }[] = [];

  add(...events: MetricEvent[]): this {
    this.events.push(...events);
    return this;
  }

  async series(scope: MetricScope, requests: readonly SeriesRequest[]): Promise<SeriesPoint[][]> {
    this.asked.push({ scope, requests });
    return requests.map((request) => this.one(scope, request));
  }

  private one(scope: MetricScope, request: SeriesRequest): SeriesPoint[] {
    const step = request.periodSeconds * 1000;
    const buckets = new Map<number, MetricEvent[]>();
    for (const event of this.events) {
      if (event.accountId !== scope.accountId || !scope.envIds.includes(event.envId)) continue;
      if (event.metric !== request.metric || event.timeMs < request.startMs || event.timeMs >= request.endMs)
        continue;
      const filters = Object.entries(request.filters) as [InsightDimension, string][];
      if (filters.some(([name, value]) => dimensionOf[name](event) !== value)) continue;
      const bucket = Math.floor(event.timeMs / step) * step;
      buckets.set(bucket, [...(buckets.get(bucket) ?? []), event]);
    }
    return [...buckets]
      .sort(([a], [b]) => a - b)
      .flatMap(([timestampMs, events]) => {
        const value = statistic(request, events);
        return value === undefined ? [] : [{ timestampMs, value }];
      });
  }
}
