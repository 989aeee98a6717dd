import { type QueryKey, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { api, ok } from '../api/client';
import type { LogQueryBody } from '../logs/filters';
import { lastActivity, summarize, type ChannelSummary, type LogRecord } from '../logs/summary';
import { DataTable, Empty, ErrorNote, Loading, When } from '../ui/kit';

/** One badge per channel a send touched: the channel and the furthest step, failures with their code. */
export function ChannelBadges({ summaries }: { summaries: ChannelSummary[] }) {
  if (summaries.length === 0) return <span className="muted">received</span>;
  return (
    <ul className="badges">
      {summaries.map((s) => (
        <li key={s.channel} className={`badge badge-${s.progress}`}>
          {s.label}: {s.progress}
          {s.failedCode !== undefined && ` (${s.failedCode})`}
          {s.progress === 'skipped' &&
            s.routing !== undefined &&
            ` (${(s.reason ?? s.routing).toLowerCase()})`}
        </li>
      ))}
    </ul>
  );
}

/** A link to a send's page, from any page (`~` leaves the nested routers' bases). */
export function SendLink({ trackingId, children }: { trackingId: string; children: ReactNode }) {
  return (
    <Link href={`~${import.meta.env.BASE_URL}logs/${encodeURIComponent(trackingId)}`} className="mono">
      {children}
    </Link>
  );
}

/** Sends as rows: each links to its page and shows its type, user, channels and latest activity. */
export function LogTable({ logs }: { logs: LogRecord[] }) {
  if (logs.length === 0) return <Empty>No sends to show.</Empty>;
  return (
    <DataTable className="logs" headers={['Send', 'Type', 'User', 'Channels', 'Last activity']}>
      {logs.map((record) => (
        <tr key={record.trackingId} data-tracking-id={record.trackingId}>
          <td>
            <SendLink trackingId={record.trackingId}>{record.trackingId.slice(0, 8)}</SendLink>
          </td>
          <td>{String(record['type'] ?? '')}</td>
          <td>{String(record['user_id'] ?? '')}</td>
          <td>
            <ChannelBadges summaries={summarize(record)} />
          </td>
          <td>
            <When at={lastActivity(record)} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/**
 * The sends a log query finds: the query runs in the background on the service, and its result is
 * asked for until it is ready. `queryKey` names this query (a new key asks again).
 */
export function LogQueryResults({ queryKey, body }: { queryKey: QueryKey; body: LogQueryBody }) {
  const start = useQuery({
    queryKey,
    queryFn: () => ok(api.POST('/logs/query', { body })),
    staleTime: Infinity,
  });
  const queryId = start.data?.queryId;
  const result = useQuery({
    queryKey: ['logs', 'query-result', queryId],
    queryFn: () => ok(api.GET('/logs/query/{queryId}', { params: { path: { queryId: queryId ?? '' } } })),
    enabled: queryId !== undefined,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 500 : false),
  });
  const error = start.error ?? result.error;
  return (
    <>
      <ErrorNote error={error} />
      {(start.isPending ||
        result.data?.status === 'running' ||
        (queryId !== undefined && result.isPending)) &&
        error === null && <Loading what="the search" />}
      {result.data?.status === 'failed' && (
        <ErrorNote error={new Error(result.data.error ?? 'The search failed.')} />
      )}
      {result.data?.status === 'complete' && <LogTable logs={result.data.logs as LogRecord[]} />}
    </>
  );
}
