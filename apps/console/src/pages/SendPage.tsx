import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, ok } from '../api/client';
import { summarize, type LogRecord } from '../logs/summary';
import { ErrorNote, Loading, PageHeader, When } from '../ui/kit';
import { ChannelBadges } from './log-parts';

/** One send: where each channel got to, why a channel failed or was skipped, and the request that started it. */
export function SendPage({ trackingId }: { trackingId: string }) {
  const record = useQuery({
    queryKey: ['logs', 'record', trackingId],
    queryFn: async () => {
      const { logs } = await ok(
        api.GET('/logs/{trackingIds}', { params: { path: { trackingIds: trackingId } } }),
      );
      return (logs[0] as LogRecord | undefined) ?? null;
    },
    refetchInterval: 5_000,
  });
  return (
    <>
      <PageHeader title="Send">
        <p>
          <Link href="/">← All sends</Link> · <span className="mono">{trackingId}</span>
        </p>
      </PageHeader>
      {record.isPending && <Loading what="the send" />}
      <ErrorNote error={record.error} />
      {record.data !== undefined && record.data !== null && <RecordView record={record.data} />}
    </>
  );
}

function RecordView({ record }: { record: LogRecord }) {
  const summaries = summarize(record);
  const request = typeof record['request'] === 'string' ? record['request'] : undefined;
  return (
    <>
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
      {request !== undefined && (
        <section aria-labelledby="request-title">
          <h2 id="request-title">The request</h2>
          <pre className="code" tabIndex={0}>
            {pretty(request)}
          </pre>
        </section>
      )}
    </>
  );
}

function pretty(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}
