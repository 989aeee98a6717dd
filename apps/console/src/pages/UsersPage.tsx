import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { api, ok } from '../api/client';
import { changedChoices, type Delivery, preferenceRows, type PreferencesView } from '../users/preferences';
import { recentSendsQuery } from '../users/sends';
import { DataTable, Empty, ErrorNote, Field, Loading, PageHeader, When } from '../ui/kit';
import { LogQueryResults } from './log-parts';

/** Users: the list and a lookup by id; a user's page below it. */
export function UsersPage() {
  return (
    <Switch>
      <Route path="/" component={UserList} />
      <Route path="/:userId">{(params) => <UserPage userId={params.userId} />}</Route>
    </Switch>
  );
}

const PAGE_SIZE = 50;

function UserList() {
  const [id, setId] = useState('');
  const [, navigate] = useLocation();
  // The pages seen so far: each starts at the token the previous one ended with.
  const [tokens, setTokens] = useState<(string | undefined)[]>([undefined]);
  const token = tokens[tokens.length - 1];
  const users = useQuery({
    queryKey: ['users', token],
    queryFn: () =>
      ok(
        api.GET('/users', {
          params: { query: { limit: PAGE_SIZE, ...(token !== undefined && { nextToken: token }) } },
        }),
      ),
  });
  const open = (event: FormEvent) => {
    event.preventDefault();
    if (id.trim() !== '') navigate(`/${encodeURIComponent(id.trim())}`);
  };
  return (
    <>
      <PageHeader title="Users">
        <p>The users of this environment: their contacts, devices, preferences and recent sends.</p>
      </PageHeader>
      <form className="inline-form" onSubmit={open} role="search" aria-label="Find a user by id">
        <Field label="User id">
          {(fieldId) => (
            <input id={fieldId} value={id} spellCheck={false} onChange={(e) => setId(e.target.value)} />
          )}
        </Field>
        <button type="submit">Open</button>
      </form>
      {users.isPending && <Loading what="the users" />}
      <ErrorNote error={users.error} />
      {users.data?.users.length === 0 && <Empty>No users yet: a send or an identify call makes one.</Empty>}
      {users.data !== undefined && users.data.users.length > 0 && (
        <DataTable label="Users" headers={['User', 'Email', 'Number', 'Last seen']}>
          {users.data.users.map((user) => (
            <tr key={user.id} data-user-id={user.id}>
              <td>
                <Link href={`/${encodeURIComponent(user.id ?? '')}`}>{user.id}</Link>
              </td>
              <td>{user.email}</td>
              <td>{user.number}</td>
              <td>
                <When at={user.lastSeenTime} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <div className="actions">
        {tokens.length > 1 && (
          <button type="button" className="secondary" onClick={() => setTokens(tokens.slice(0, -1))}>
            Previous page
          </button>
        )}
        {users.data?.hasMore === true && users.data.lastEvaluatedKey !== undefined && (
          <button
            type="button"
            className="secondary"
            onClick={() => setTokens([...tokens, users.data?.lastEvaluatedKey])}
          >
            Next page
          </button>
        )}
      </div>
    </>
  );
}

function UserPage({ userId }: { userId: string }) {
  const path = { params: { path: { userId } } };
  const client = useQueryClient();
  const user = useQuery({ queryKey: ['user', userId], queryFn: () => ok(api.GET('/users/{userId}', path)) });
  const unsuppress = useMutation({
    mutationFn: () =>
      ok(
        api.DELETE('/user_suppression/{userId}/channel/{channel}', {
          params: { path: { userId, channel: 'EMAIL' } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ['user', userId] }),
  });
  const u = user.data;
  // The range ends when the page opened (not at each render), so the query keeps one key.
  const [openedAt] = useState(() => Date.now());
  return (
    <>
      <PageHeader title="User">
        <p>
          <Link href="/">← All users</Link> · <span className="mono wrap-anywhere">{userId}</span>
        </p>
      </PageHeader>
      {user.isPending && <Loading what="the user" />}
      <ErrorNote error={user.error} />
      {u !== undefined && (
        <section aria-labelledby="contacts-title">
          <h2 id="contacts-title">Contacts</h2>
          <dl className="facts">
            <dt>Email</dt>
            <dd>{u.email ?? '—'}</dd>
            <dt>Number</dt>
            <dd>{u.number ?? '—'}</dd>
            <dt>Time zone</dt>
            <dd>{u.timezone ?? '—'}</dd>
            <dt>Slack</dt>
            <dd>{u.slackChannel ?? (u.slackToken === undefined ? '—' : 'connected')}</dd>
            <dt>Last seen</dt>
            <dd>
              <When at={u.lastSeenTime} />
            </dd>
          </dl>
          {u.emailSuppressionStatus !== undefined && (
            <div className="note note-error" data-suppression={u.emailSuppressionStatus.reason}>
              <strong>Email suppressed: {u.emailSuppressionStatus.reason}.</strong> No email reaches this
              address until the suppression is lifted.
              <div className="actions">
                <button type="button" className="secondary" onClick={() => unsuppress.mutate()}>
                  Lift the email suppression
                </button>
              </div>
              <ErrorNote error={unsuppress.error} />
            </div>
          )}
          <h2>Devices</h2>
          {(u.pushTokens ?? []).length + (u.webPushTokens ?? []).length === 0 ? (
            <Empty>No mobile or web push subscriptions.</Empty>
          ) : (
            <ul className="plain-list">
              {(u.pushTokens ?? []).map((t) => (
                <li key={t.token}>
                  {t.type} · {t.device.platform ?? 'device'} {t.device.model ?? ''} ·{' '}
                  <span className="mono wrap-anywhere">{t.device.device_id}</span>
                </li>
              ))}
              {(u.webPushTokens ?? []).map((t) => (
                <li key={t.sub.endpoint}>
                  Web push · <span className="mono wrap-anywhere">{new URL(t.sub.endpoint).host}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <Preferences userId={userId} />
      <section aria-labelledby="sends-title">
        <h2 id="sends-title">Sends of the last 7 days</h2>
        <LogQueryResults
          queryKey={['user-sends', userId, openedAt]}
          body={recentSendsQuery(userId, openedAt)}
        />
      </section>
    </>
  );
}

/** The user's preferences; any member may change them on the user's behalf (the account history says who). */
function Preferences({ userId }: { userId: string }) {
  const path = { params: { path: { userId } } };
  const client = useQueryClient();
  const view = useQuery({
    queryKey: ['user-preferences', userId],
    queryFn: async () => (await ok(api.GET('/users/{userId}/preferences', path))) as PreferencesView,
  });
  const [draft, setDraft] = useState<Record<string, Delivery>>({});
  const rows = view.data === undefined ? [] : preferenceRows(view.data);
  const changes = changedChoices(rows, draft);
  const save = useMutation({
    mutationFn: () => ok(api.POST('/users/{userId}/preferences', { ...path, body: changes })),
    onSuccess: async () => {
      setDraft({});
      await client.invalidateQueries({ queryKey: ['user-preferences', userId] });
    },
  });
  return (
    <section aria-labelledby="preferences-title">
      <h2 id="preferences-title">Preferences</h2>
      {view.isPending && <Loading what="the preferences" />}
      <ErrorNote error={view.error ?? save.error} />
      {view.data !== undefined && rows.length === 0 && (
        <Empty>No notification types to choose from yet.</Empty>
      )}
      {rows.length > 0 && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate();
          }}
        >
          <DataTable label="Preferences" headers={['Notification', 'Channel', 'Delivery']}>
            {rows.map((row) => (
              <tr key={row.key}>
                <td>{row.title}</td>
                <td>{row.channel}</td>
                <td>
                  <select
                    aria-label={`${row.title}, ${row.channel}`}
                    value={draft[row.key] ?? row.current}
                    onChange={(e) => setDraft({ ...draft, [row.key]: e.target.value as Delivery })}
                  >
                    {row.options.map((option) => (
                      <option key={option} value={option}>
                        {option}
                        {option === row.current && !row.chosen ? ' (default)' : ''}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </DataTable>
          <div className="actions">
            <button type="submit" disabled={changes.length === 0 || save.isPending}>
              Save {changes.length === 0 ? '' : `${changes.length} change${changes.length === 1 ? '' : 's'}`}
            </button>
            {save.isSuccess && (
              <span role="status" className="muted">
                Saved on the user&apos;s behalf.
              </span>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
