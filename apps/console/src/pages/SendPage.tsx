import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, ok } from '../api/client';
import { summarize, type LogRecord } from '../logs/summary';
import { formatAfter, requestOf, timeline, type TimelineEntry } from '../logs/timeline';
import { ErrorNote, Loading, PageHeader, When } from '../ui/kit';
import { ChannelBadges } from './log-parts';

const REFRESH_MS = 3_000;

/**
 * One send: where each channel got to, and its whole journey on one timeline (received, routed or why
 * not, scheduled, batched, sent, delivered, opened, clicked, failed with the provider's answer, webhook
 * attempts), with the request that started it. Both refresh while the page is open.
 */
export function SendPage({ trackingId }: { trackingId: string }) {
  const path = { params: { path: { trackingId } } };
  const record = useQuery({
    queryKey: ['logs', 'record', trackingId],
    queryFn: async () => {
      const { logs } = await ok(
        api.GET('/logs/{trackingIds}', { params: { path: { trackingIds: trackingId } } }),
      );
      return (logs[0] as LogRecord | undefined) ?? null;
    },
    refetchInterval: REFRESH_MS,
  });
  const events = useQuery({
    queryKey: ['logs', 'events', trackingId],
    queryFn: async () => (await ok(api.GET('/logs/{trackingId}/events', path))).events,
    refetchInterval: REFRESH_MS,
  });
  const request = events.data === undefined ? undefined : requestOf(events.data);
  return (
    <>
      <PageHeader title="Send">
        <p>
          <Link href="/">← All sends</Link> · <span className="mono">{trackingId}</span>
        </p>
      </PageHeader>
      {(record.isPending || events.isPending) && <Loading what="the send" />}
      <ErrorNote error={record.error ?? events.error} />
      {record.data !== undefined && record.data !== null && <Channels record={record.data} />}
      {events.data !== undefined && (
        <section aria-labelledby="timeline-title">
          <h2 id="timeline-title">Timeline</h2>
          <ol className="timeline">
            {timeline(events.data).map((entry) => (
              <TimelineItem key={entry.eventId} entry={entry} />
            ))}
          </ol>
        </section>
      )}
      {request !== undefined && (
        <section aria-labelledby="request-title">
          <h2 id="request-title">The request</h2>
          <pre className="code" tabIndex={0}>
            {request}
          </pre>
        </section>
      )}
    </>
  );
}

function Channels({ record }: { record: LogRecord }) {
  const summaries = summarize(record);
  return (
    <section aria-labelledby="channels-title">
      <h2 id="channels-title">Channels</h2>
      <dl className="facts">
        <dt>Type</dt>
        <dd>{String(record['type'] ?? '')}</dd>
        <dt>User</dt>
        <dd>{String(record['user_id'] ?? '')}</dd>
        <dt>Received</dt>
        <dd>
          <When at={record['received_at'] as string | undefined} />
        </dd>
      </dl>
      <ChannelBadges summaries={summaries} />
      {summaries
        .filter((s) => s.progress === 'failed')
        .map((s) => (
          <div key={s.channel} className="note note-error">
            <strong>
              {s.label} failed{s.failedCode !== undefined && `: ${s.failedCode}`}
            </strong>
            {s.failedInternal !== undefined && <p className="provider-answer">{s.failedInternal}</p>}
          </div>
        ))}
    </section>
  );
}

function TimelineItem({ entry }: { entry: TimelineEntry }) {
  return (
    <li className={`timeline-item tone-${entry.tone}`} data-event={entry.title}>
      <div className="timeline-head">
        <span className="timeline-after mono">{formatAfter(entry.afterMs)}</span>
        <strong>{entry.title}</strong>
        <When at={entry.at} />
      </div>
      {entry.details.length > 0 && (
        <dl className="facts timeline-details">
          {entry.details.map(([name, value]) => (
            <div key={name} className="fact">
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}
