import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { api, ok, type Schemas } from '../api/client';
import { useSession } from '../app/session';
import { ConfirmButton, DataTable, Empty, ErrorNote, Field, Loading, PageHeader, When } from '../ui/kit';
import {
  attemptOutcome,
  attemptSucceeded,
  type Delivery,
  endpointBody,
  type EndpointDraft,
  EVENT_GROUPS,
  toggleEvent,
} from '../webhooks/endpoints';
import { SendLink } from './log-parts';

type Endpoint = Schemas['WebhookEndpoint'];

const ENDPOINTS = ['webhooks'] as const;
const deliveriesKey = (endpointId: string) => ['webhooks', endpointId, 'deliveries'] as const;

/** Webhooks: the environment's endpoints (the list) and one endpoint with its recent deliveries. */
export function WebhooksPage() {
  return (
    <Switch>
      <Route path="/" component={EndpointList} />
      <Route path="/:endpointId">{(params) => <EndpointPage endpointId={params.endpointId} />}</Route>
    </Switch>
  );
}

const useEndpoints = () => useQuery({ queryKey: ENDPOINTS, queryFn: () => ok(api.GET('/webhooks')) });

/** Below admin, the forms are shown read-only: say so, and which role would change them. */
function AdminOnly() {
  const session = useSession();
  if (session.can('admin')) return null;
  return (
    <p className="note">
      Creating, changing, deleting and redelivering need the admin role; you are a {session.role}.
    </p>
  );
}

function EndpointList() {
  const endpoints = useEndpoints();
  return (
    <>
      <PageHeader title="Webhooks">
        <p>
          Endpoints that receive this environment&apos;s events, signed with their own secret. Open one to see
          its recent deliveries.
        </p>
      </PageHeader>
      <AdminOnly />
      {endpoints.isPending && <Loading what="the endpoints" />}
      <ErrorNote error={endpoints.error} />
      {endpoints.data !== undefined && <EndpointTable endpoints={endpoints.data} />}
      <CreateEndpoint />
    </>
  );
}

function EndpointTable({ endpoints }: { endpoints: Endpoint[] }) {
  if (endpoints.length === 0) return <Empty>No endpoints yet.</Empty>;
  return (
    <DataTable headers={['URL', 'Event types', 'Changed']}>
      {endpoints.map((endpoint) => (
        <tr key={endpoint.endpointId} data-endpoint-id={endpoint.endpointId}>
          <td className="wrap-anywhere">
            <Link href={`/${encodeURIComponent(endpoint.endpointId)}`}>{endpoint.webhook}</Link>
          </td>
          <td>
            <ul className="badges">
              {endpoint.events.map((event) => (
                <li key={event} className="badge">
                  {event}
                </li>
              ))}
            </ul>
          </td>
          <td>
            <When at={endpoint.updatedAt} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** A new endpoint; its signing secret is shown once, as the service answers it only on creation. */
function CreateEndpoint() {
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: (body: EndpointDraft) => ok(api.POST('/webhooks', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ENDPOINTS }),
  });
  const created = create.data;
  return (
    <section className="card" aria-labelledby="create-title">
      <h2 id="create-title">Add an endpoint</h2>
      {created !== undefined ? (
        <div className="note" role="status">
          <p>
            <strong>Endpoint added.</strong> Its signing secret is shown this once: keep it to verify the{' '}
            <code>webhook-signature</code> header.
          </p>
          <Field label="Signing secret">
            {(id) => <input id={id} className="mono" readOnly value={created.secret} size={48} />}
          </Field>
          <div className="actions">
            <Link href={`/${encodeURIComponent(created.endpointId)}`}>Open the endpoint</Link>
            <button type="button" className="secondary" onClick={() => create.reset()}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <EndpointForm
          initial={{ webhook: '', events: [] }}
          submitLabel="Add endpoint"
          busy={create.isPending}
          error={create.error}
          onSubmit={(body) => create.mutate(body)}
        />
      )}
    </section>
  );
}

/** The URL and event types of an endpoint, checked before they are sent; read-only below admin. */
function EndpointForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
}: {
  initial: EndpointDraft;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (body: EndpointDraft) => void;
}) {
  const readOnly = !useSession().can('admin');
  const [draft, setDraft] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const check = endpointBody(draft);
    setProblem(check.ok ? null : check.problem);
    if (check.ok) onSubmit(check.body);
  };
  return (
    <form onSubmit={submit}>
      <Field label="URL" hint="Where the events are posted (http or https).">
        {(id, hint) => (
          <input
            id={id}
            type="url"
            aria-describedby={hint}
            value={draft.webhook}
            disabled={readOnly}
            placeholder="https://example.com/notify-events"
            size={48}
            onChange={(event) => setDraft({ ...draft, webhook: event.target.value })}
          />
        )}
      </Field>
      <fieldset className="event-groups" disabled={readOnly}>
        <legend>Event types</legend>
        {EVENT_GROUPS.map((group) => (
          <fieldset key={group.label}>
            <legend>{group.label}</legend>
            {group.events.map((event) => (
              <label key={event} className="check">
                <input
                  type="checkbox"
                  checked={draft.events.includes(event)}
                  onChange={(change) => setDraft(toggleEvent(draft, event, change.target.checked))}
                />
                {event}
              </label>
            ))}
          </fieldset>
        ))}
      </fieldset>
      {problem !== null && (
        <p className="note note-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNote error={error} />
      {!readOnly && (
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
      )}
    </form>
  );
}

function EndpointPage({ endpointId }: { endpointId: string }) {
  const endpoints = useEndpoints();
  const endpoint = endpoints.data?.find((e) => e.endpointId === endpointId);
  return (
    <>
      <PageHeader title="Webhook endpoint">
        <p>
          <Link href="/">← All endpoints</Link> ·{' '}
          <span className="wrap-anywhere">{endpoint?.webhook ?? endpointId}</span>
        </p>
      </PageHeader>
      <AdminOnly />
      {endpoints.isPending && <Loading what="the endpoint" />}
      <ErrorNote error={endpoints.error} />
      {endpoints.data !== undefined && endpoint === undefined && (
        <ErrorNote error={new Error('This environment has no such endpoint.')} />
      )}
      {endpoint !== undefined && (
        <>
          <Deliveries endpointId={endpoint.endpointId} />
          <EditEndpoint endpoint={endpoint} />
        </>
      )}
    </>
  );
}

function EditEndpoint({ endpoint }: { endpoint: Endpoint }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const path = { params: { path: { endpointId: endpoint.endpointId } } };
  const update = useMutation({
    mutationFn: (body: EndpointDraft) => ok(api.PUT('/webhooks/{endpointId}', { ...path, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ENDPOINTS }),
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/webhooks/{endpointId}', path)),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ENDPOINTS });
      navigate('/');
    },
  });
  const admin = useSession().can('admin');
  return (
    <section className="card" aria-labelledby="edit-title">
      <h2 id="edit-title">Settings</h2>
      <p className="muted">
        Created <When at={endpoint.createdAt} />; the signing secret stays the same when the endpoint is
        changed.
      </p>
      {update.isSuccess && (
        <p className="note" role="status">
          Saved.
        </p>
      )}
      <EndpointForm
        key={endpoint.updatedAt}
        initial={{ webhook: endpoint.webhook, events: endpoint.events }}
        submitLabel="Save"
        busy={update.isPending}
        error={update.error}
        onSubmit={(body) => update.mutate(body)}
      />
      {admin && (
        <div className="actions danger-zone">
          <ConfirmButton
            label="Delete endpoint"
            confirmLabel="Press again to delete"
            busy={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </div>
      )}
      <ErrorNote error={remove.error} />
    </section>
  );
}

/** The endpoint's recent deliveries, the latest first, asked for again every few seconds. */
function Deliveries({ endpointId }: { endpointId: string }) {
  const deliveries = useQuery({
    queryKey: deliveriesKey(endpointId),
    queryFn: () => ok(api.GET('/webhooks/{endpointId}/deliveries', { params: { path: { endpointId } } })),
    refetchInterval: 3_000,
  });
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Recent deliveries</h2>
      {deliveries.isPending && <Loading what="the deliveries" />}
      <ErrorNote error={deliveries.error} />
      {deliveries.data?.length === 0 && <Empty>No deliveries in the last 7 days.</Empty>}
      {deliveries.data?.map((delivery) => (
        <DeliveryCard key={delivery.msgId} endpointId={endpointId} delivery={delivery} />
      ))}
    </section>
  );
}

function DeliveryCard({ endpointId, delivery }: { endpointId: string; delivery: Delivery }) {
  const client = useQueryClient();
  const admin = useSession().can('admin');
  const redeliver = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/webhooks/{endpointId}/deliveries/{msgId}/redeliver', {
          params: { path: { endpointId, msgId: delivery.msgId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: deliveriesKey(endpointId) }),
  });
  const titleId = `delivery-${delivery.msgId}`;
  return (
    <article className="card delivery" aria-labelledby={titleId} data-msg-id={delivery.msgId}>
      <h3 id={titleId}>
        {delivery.eventType} <span className={`badge badge-${delivery.status}`}>{delivery.status}</span>
      </h3>
      <dl className="facts">
        <dt>Send</dt>
        <dd>
          {delivery.trackingId === undefined ? (
            <span className="muted">none</span>
          ) : (
            <SendLink trackingId={delivery.trackingId}>{delivery.trackingId}</SendLink>
          )}
        </dd>
        <dt>webhook-id</dt>
        <dd className="mono">{delivery.msgId}</dd>
        {delivery.nextAttemptAt !== undefined && (
          <>
            <dt>Next attempt</dt>
            <dd>
              <When at={delivery.nextAttemptAt} />
            </dd>
          </>
        )}
      </dl>
      <DataTable
        caption={`Attempts of ${delivery.msgId}`}
        className="attempts"
        headers={['Attempt', 'Time', 'Response', 'Duration', 'Body']}
      >
        {delivery.attempts.map((attempt, index) => (
          <tr key={`${attempt.at}-${index}`}>
            <td>{index + 1}</td>
            <td>
              <When at={attempt.at} />
            </td>
            <td className={attemptSucceeded(attempt) ? 'outcome-ok' : 'outcome-bad'}>
              {attemptOutcome(attempt)}
            </td>
            <td>{Math.round(attempt.durationMs)} ms</td>
            <td>
              {attempt.body === '' ? (
                <span className="muted">empty</span>
              ) : (
                <pre className="response-body">{attempt.body}</pre>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {admin && (
        <div className="actions">
          <button
            type="button"
            className="secondary"
            disabled={redeliver.isPending}
            onClick={() => redeliver.mutate()}
          >
            Redeliver
          </button>
          {redeliver.isSuccess && (
            <span role="status" className="muted">
              {redeliver.data.message}
            </span>
          )}
        </div>
      )}
      <ErrorNote error={redeliver.error} />
    </article>
  );
}
