import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { api, ok } from '../api/client';
import { STATUSES, toLogQuery, type LogFilters } from '../logs/filters';
import { CHANNELS, type LogRecord } from '../logs/summary';
import { ErrorNote, Field, Loading, PageHeader } from '../ui/kit';
import { LogQueryResults, LogTable } from './log-parts';
import { SendPage } from './SendPage';

/** Logs: the live tail and the search (the list), and one send's page below it. */
export function LogsPage() {
  return (
    <Switch>
      <Route path="/" component={LogsList} />
      <Route path="/:trackingId">{(params) => <SendPage trackingId={params.trackingId} />}</Route>
    </Switch>
  );
}

const NO_FILTERS: LogFilters = { user: '', notificationId: '', channel: '', status: '', from: '', to: '' };
const POLL_MS = 2_000;

function LogsList() {
  // Each press of Search asks again (the range ends at that moment), even with the same filters.
  const [search, setSearch] = useState<{ filters: LogFilters; at: number } | null>(null);
  return (
    <>
      <PageHeader title="Logs">
        <p>
          Every send of this environment: the latest live, or search by user, type, channel, status and time.
        </p>
      </PageHeader>
      <FindById />
      <SearchForm
        onSearch={(filters) => setSearch({ filters, at: Date.now() })}
        onClear={() => setSearch(null)}
        searching={search !== null}
      />
      {search === null ? <LiveTail /> : <SearchResults filters={search.filters} at={search.at} />}
    </>
  );
}

function FindById() {
  const [id, setId] = useState('');
  const [, navigate] = useLocation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (id.trim() !== '') navigate(`/${encodeURIComponent(id.trim())}`);
  };
  return (
    <form className="inline-form" onSubmit={submit} role="search" aria-label="Find a send by tracking id">
      <Field label="Tracking id">
        {(fieldId) => (
          <input id={fieldId} value={id} spellCheck={false} onChange={(event) => setId(event.target.value)} />
        )}
      </Field>
      <button type="submit">Open</button>
    </form>
  );
}

function SearchForm({
  onSearch,
  onClear,
  searching,
}: {
  onSearch: (filters: LogFilters) => void;
  onClear: () => void;
  searching: boolean;
}) {
  const [draft, setDraft] = useState(NO_FILTERS);
  const set = (name: keyof LogFilters) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [name]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft);
  };
  return (
    <form className="filters" onSubmit={submit} role="search" aria-label="Search the log">
      <Field label="User ids">
        {(id) => <input id={id} value={draft.user} onChange={set('user')} placeholder="ann, bob" />}
      </Field>
      <Field label="Notification type">
        {(id) => <input id={id} value={draft.notificationId} onChange={set('notificationId')} />}
      </Field>
      <Field label="Channel">
        {(id) => (
          <select id={id} value={draft.channel} onChange={set('channel')}>
            <option value="">Any</option>
            {CHANNELS.map((c) => (
              <option key={c.channel} value={c.channel}>
                {c.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Status">
        {(id) => (
          <select id={id} value={draft.status} onChange={set('status')}>
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status.toLowerCase()}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="From">
        {(id) => <input id={id} type="datetime-local" value={draft.from} onChange={set('from')} />}
      </Field>
      <Field label="To">
        {(id) => <input id={id} type="datetime-local" value={draft.to} onChange={set('to')} />}
      </Field>
      <div className="actions">
        <button type="submit">Search</button>
        {searching && (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDraft(NO_FILTERS);
              onClear();
            }}
          >
            Back to live
          </button>
        )}
      </div>
    </form>
  );
}

/** The most recently active sends, asked again every two seconds while the tab is visible. */
function LiveTail() {
  const tail = useQuery({
    queryKey: ['logs', 'tail'],
    queryFn: () => ok(api.GET('/logs/tail')),
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
  });
  return (
    <section aria-labelledby="tail-title">
      <h2 id="tail-title">
        Live <span className="live-dot" aria-hidden="true" />
      </h2>
      {tail.isPending && <Loading what="the latest sends" />}
      <ErrorNote error={tail.error} />
      {tail.data !== undefined && <LogTable logs={tail.data.logs as LogRecord[]} />}
    </section>
  );
}

/** A search runs in the background on the service; its result is asked for until it is ready. */
function SearchResults({ filters, at }: { filters: LogFilters; at: number }) {
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">Search results</h2>
      <LogQueryResults queryKey={['logs', 'query', filters, at]} body={toLogQuery(filters, at)} />
    </section>
  );
}
