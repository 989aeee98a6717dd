/** The insight queries the console asks for, and how it reads the answers. */
import { CHANNELS as ALL_CHANNELS } from '../logs/summary';

export const CHANNELS = ALL_CHANNELS.map((c) => c.channel);
const COUNTS = ['Sent', 'Delivered', 'Failed'] as const;
export type Count = (typeof COUNTS)[number];

interface MetricQuery {
  Id: string;
  Label?: string;
  ReturnData?: boolean;
  MetricStat?: {
    Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: string }[] };
    Period: number;
    Stat: string;
  };
  Expression?: string;
}

export interface InsightsRequest {
  StartTime: string;
  EndTime: string;
  MetricDataQueries: MetricQuery[];
  ScanBy: string;
}

const metric = (id: string, name: string, period: number, stat: string, channel?: string): MetricQuery => ({
  Id: id,
  MetricStat: {
    Metric: {
      Namespace: 'Notifications',
      MetricName: name,
      ...(channel !== undefined && { Dimensions: [{ Name: 'Channel', Value: channel }] }),
    },
    Period: period,
    Stat: stat,
  },
});

/**
 * One request for the whole page: sent, delivered and failed over time; the failure rate (failed of
 * sent and failed, a period with neither has no point); delivery latency p50 and p99; and the three
 * counts per channel.
 */
export function insightsRequest(startMs: number, endMs: number, period: number): InsightsRequest {
  return {
    StartTime: new Date(startMs).toISOString(),
    EndTime: new Date(endMs).toISOString(),
    ScanBy: 'TimestampAscending',
    MetricDataQueries: [
      ...COUNTS.map((name) => metric(name.toLowerCase(), name, period, 'Sum')),
      {
        Id: 'failure_rate',
        Label: 'Failure rate (%)',
        Expression: '100 * FILL(failed, 0) / (FILL(sent, 0) + FILL(failed, 0))',
      },
      metric('latency_p50', 'Delivered', period, 'p50'),
      metric('latency_p99', 'Delivered', period, 'p99'),
      ...CHANNELS.flatMap((channel) =>
        COUNTS.map((name) =>
          metric(`${name.toLowerCase()}_${channel.toLowerCase()}`, name, period, 'Sum', channel),
        ),
      ),
    ],
  };
}

export interface InsightResult {
  Id: string;
  Label: string;
  Timestamps: string[];
  Values: number[];
  StatusCode: string;
  Messages: { Code: string; Value: string }[];
}

/** A series on the chart's time axis (seconds), missing periods as null. */
export interface Series {
  label: string;
  values: (number | null)[];
}

/**
 * The results `ids` aligned on one time axis: every period from the start to the end, each value in
 * its period or null where the series has none (uPlot's data layout). Counts with no event in a
 * period are 0, not missing, when `zeroFill`.
 */
export function alignSeries(
  results: readonly InsightResult[],
  ids: readonly string[],
  startMs: number,
  endMs: number,
  period: number,
  zeroFill: boolean,
): { times: number[]; series: Series[] } {
  const first = Math.floor(startMs / 1000 / period) * period;
  const times: number[] = [];
  for (let t = first; t * 1000 < endMs; t += period) times.push(t);
  const index = new Map(times.map((t, i) => [t, i]));
  const series = ids.map((id) => {
    const result = results.find((r) => r.Id === id);
    const values: (number | null)[] = times.map(() => (zeroFill ? 0 : null));
    result?.Timestamps.forEach((stamp, i) => {
      const at = index.get(Math.floor(Date.parse(stamp) / 1000));
      const value = result.Values[i];
      if (at !== undefined && value !== undefined) values[at] = value;
    });
    return { label: result?.Label ?? id, values };
  });
  return { times, series };
}

/** Each channel's sent, delivered and failed over the range; channels with none are left out. */
export function perChannel(
  results: readonly InsightResult[],
): { channel: string; counts: Record<Count, number> }[] {
  const total = (id: string) =>
    (results.find((r) => r.Id === id)?.Values ?? []).reduce((sum, v) => sum + v, 0);
  return CHANNELS.map((channel) => ({
    channel,
    counts: Object.fromEntries(
      COUNTS.map((name) => [name, total(`${name.toLowerCase()}_${channel.toLowerCase()}`)]),
    ) as Record<Count, number>,
  })).filter((row) => COUNTS.some((name) => row.counts[name] > 0));
}

/** What the service said it could not answer (a period too fine, a store error), once each. */
export function problemsOf(results: readonly InsightResult[]): string[] {
  return [
    ...new Set(
      results.flatMap((r) =>
        r.Messages.filter((m) => m.Code !== 'NextToken').map((m) => `${m.Code}: ${m.Value}`),
      ),
    ),
  ];
}
