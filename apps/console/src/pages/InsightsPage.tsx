import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, ok } from '../api/client';
import { Chart } from '../insights/Chart';
import { periodFor } from '../insights/period';
import {
  alignSeries,
  insightsRequest,
  perChannel,
  problemsOf,
  type InsightResult,
} from '../insights/queries';
import { CHANNELS } from '../logs/summary';
import { DataTable, Empty, ErrorNote, Field, Loading, PageHeader } from '../ui/kit';

const HOUR = 3_600_000;
const RANGES = [
  { label: 'Last hour', ms: HOUR },
  { label: 'Last 24 hours', ms: 24 * HOUR },
  { label: 'Last 7 days', ms: 7 * 24 * HOUR },
  { label: 'Last 30 days', ms: 30 * 24 * HOUR },
] as const;

const channelLabel = (channel: string) => CHANNELS.find((c) => c.channel === channel)?.label ?? channel;

/** Sent, delivered and failed over time, the failure rate, delivery latency, and each channel's counts. */
export function InsightsPage() {
  const [rangeMs, setRangeMs] = useState<number>(24 * HOUR);
  const insights = useQuery({
    queryKey: ['insights', rangeMs],
    queryFn: async () => {
      const endMs = Date.now();
      const startMs = endMs - rangeMs;
      const period = periodFor(rangeMs);
      const body = insightsRequest(startMs, endMs, period);
      const results = (await ok(api.POST('/insights', { body }))) as InsightResult[];
      return { results, startMs, endMs, period };
    },
    refetchInterval: 60_000,
  });
  return (
    <>
      <PageHeader title="Insights">
        <p>Deliveries of this environment over time, from the insights API.</p>
      </PageHeader>
      <Field label="Time range">
        {(id) => (
          <select id={id} value={rangeMs} onChange={(event) => setRangeMs(Number(event.target.value))}>
            {RANGES.map((range) => (
              <option key={range.ms} value={range.ms}>
                {range.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {insights.isPending && <Loading what="the insights" />}
      <ErrorNote error={insights.error} />
      {insights.data !== undefined && <Figures {...insights.data} />}
    </>
  );
}

function Figures({
  results,
  startMs,
  endMs,
  period,
}: {
  results: InsightResult[];
  startMs: number;
  endMs: number;
  period: number;
}) {
  const volume = useMemo(
    () => alignSeries(results, ['sent', 'delivered', 'failed'], startMs, endMs, period, true),
    [results, startMs, endMs, period],
  );
  const rate = useMemo(
    () => alignSeries(results, ['failure_rate'], startMs, endMs, period, false),
    [results, startMs, endMs, period],
  );
  const latency = useMemo(
    () => alignSeries(results, ['latency_p50', 'latency_p99'], startMs, endMs, period, false),
    [results, startMs, endMs, period],
  );
  const rows = perChannel(results);
  const total = (id: string) => (results.find((r) => r.Id === id)?.Values ?? []).reduce((a, b) => a + b, 0);
  const [sent, failed] = [total('sent'), total('failed')];
  const problems = problemsOf(results);
  const minutes = period >= 60 ? `${period / 60} min` : `${period} s`;
  return (
    <>
      {problems.map((problem) => (
        <p key={problem} className="note">
          {problem}
        </p>
      ))}
      <dl className="stats">
        <div>
          <dt>Sent</dt>
          <dd>{sent}</dd>
        </div>
        <div>
          <dt>Delivered</dt>
          <dd>{total('delivered')}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{failed}</dd>
        </div>
        <div>
          <dt>Failure rate</dt>
          <dd>{sent + failed === 0 ? '—' : `${((100 * failed) / (sent + failed)).toFixed(1)} %`}</dd>
        </div>
      </dl>
      <section aria-labelledby="volume-title">
        <h2 id="volume-title">Sent, delivered and failed per {minutes}</h2>
        <Chart
          times={volume.times}
          series={volume.series}
          unit=""
          summary={`Sent ${sent}, delivered ${total('delivered')}, failed ${failed} over the range.`}
        />
      </section>
      <section aria-labelledby="rate-title">
        <h2 id="rate-title">Failure rate</h2>
        <Chart
          times={rate.times}
          series={rate.series}
          unit="%"
          summary="Failed of sent and failed, per period, in percent."
        />
      </section>
      <section aria-labelledby="latency-title">
        <h2 id="latency-title">Delivery latency, p50 and p99</h2>
        <Chart
          times={latency.times}
          series={latency.series}
          unit="ms"
          summary="Milliseconds from the request to delivery: the median and the 99th percentile, per period."
        />
      </section>
      <section aria-labelledby="channels-title">
        <h2 id="channels-title">By channel</h2>
        {rows.length === 0 ? (
          <Empty>Nothing sent in this range.</Empty>
        ) : (
          <DataTable headers={['Channel', 'Sent', 'Delivered', 'Failed']}>
            {rows.map((row) => (
              <tr key={row.channel} data-channel={row.channel}>
                <td>{channelLabel(row.channel)}</td>
                <td>{row.counts.Sent}</td>
                <td>{row.counts.Delivered}</td>
                <td>{row.counts.Failed}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </>
  );
}
