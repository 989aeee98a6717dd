import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { api, ok } from '../api/client';
import { later } from '../app/pages';
import { useSession } from '../app/session';
import { channelLabel, readOnlyNote, typesKey } from '../types/labels';
import { TypeSettings } from '../types/TypeSettings';
import { DataTable, Empty, ErrorNote, Field, Loading, PageHeader } from '../ui/kit';

// The template editor (CodeMirror) loads only when a template is opened.
const TemplatesPage = later(() => import('../templates/TemplatesPage'), 'TemplatesPage');

/** Notification types: the list, one type's settings, and its templates per channel. */
export function TypesPage() {
  return (
    <Switch>
      <Route path="/" component={TypesList} />
      <Route path="/:id">{(params) => <TypePage notificationId={params.id} />}</Route>
      <Route path="/:id/templates/:channel/:templateId?" component={TemplatesPage} />
    </Switch>
  );
}

function TypesList() {
  const { can } = useSession();
  const types = useQuery({ queryKey: typesKey, queryFn: () => ok(api.GET('/types')) });
  return (
    <>
      <PageHeader title="Notification types">
        <p>What this environment sends: each type's channels, delivery and templates.</p>
      </PageHeader>
      {can('admin') ? <CreateType /> : <p className="note">{readOnlyNote}</p>}
      {types.isPending && <Loading what="the notification types" />}
      <ErrorNote error={types.error} />
      {types.data !== undefined &&
        (types.data.length === 0 ? (
          <Empty>No notification types yet. A send creates its type, or create one above.</Empty>
        ) : (
          <DataTable headers={['Type', 'Title', 'Channels', 'Enabled']}>
            {types.data.map((type) => (
              <tr key={type.notificationId}>
                <td>
                  <Link href={`/${encodeURIComponent(type.notificationId)}`} className="mono">
                    {type.notificationId}
                  </Link>
                </td>
                <td>{type.title}</td>
                <td>{type.channels.map(channelLabel).join(', ')}</td>
                <td>{type.enabled ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </DataTable>
        ))}
    </>
  );
}

function CreateType() {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [id, setId] = useState('');
  const [title, setTitle] = useState('');
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/types', {
          body: { notificationId: id.trim(), title: title.trim() || id.trim(), channels: [] },
        }),
      ),
    onSuccess: async (type) => {
      await client.invalidateQueries({ queryKey: typesKey });
      navigate(`/${encodeURIComponent(type.notificationId)}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (id.trim() !== '') create.mutate();
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Create a notification type">
      <Field label="New type id">
        {(fieldId) => (
          <input
            id={fieldId}
            value={id}
            spellCheck={false}
            required
            onChange={(e) => setId(e.target.value)}
          />
        )}
      </Field>
      <Field label="Title">
        {(fieldId) => <input id={fieldId} value={title} onChange={(e) => setTitle(e.target.value)} />}
      </Field>
      <button type="submit" disabled={create.isPending}>
        Create type
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

function TypePage({ notificationId }: { notificationId: string }) {
  const type = useQuery({
    queryKey: [...typesKey, notificationId],
    queryFn: async () =>
      (await ok(api.GET('/types/{notificationId}', { params: { path: { notificationId } } })))[0] ?? null,
  });
  return (
    <>
      <PageHeader title={`Type ${notificationId}`}>
        <p>
          <Link href="/">← All notification types</Link>
        </p>
      </PageHeader>
      {type.isPending && <Loading what="the notification type" />}
      <ErrorNote error={type.error} />
      {type.data === null && <Empty>No notification type {notificationId} in this environment.</Empty>}
      {type.data !== undefined && type.data !== null && (
        <>
          <section aria-labelledby="templates-title">
            <h2 id="templates-title">Templates</h2>
            {type.data.channels.length === 0 ? (
              <Empty>Choose channels below to write their templates.</Empty>
            ) : (
              <ul className="badges">
                {type.data.channels.map((channel) => (
                  <li key={channel}>
                    <Link
                      className="badge"
                      href={`/${encodeURIComponent(notificationId)}/templates/${channel}`}
                    >
                      {channelLabel(channel)} templates
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <TypeSettings key={JSON.stringify(type.data)} type={type.data} />
        </>
      )}
    </>
  );
}
