import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api, ok } from '../api/client';
import { useSession } from '../app/session';
import { CHANNELS, type LogRecord } from '../logs/summary';
import { channelLabel, readOnlyNote } from '../types/labels';
import { DataTable, Empty, ErrorNote, Field, Loading, PageHeader, When } from '../ui/kit';
import { CodeEditor, type MergeTags } from './CodeEditor';
import {
  type Channel,
  CHANNEL_FIELDS,
  contentOf,
  type Draft,
  draftOf,
  problemLine,
  type Template,
} from './content';
import { parameterPaths } from './merge-tags';
import { Preview } from './Preview';

const MODES = ['instant', 'hourly', 'daily', 'weekly', 'monthly'] as const;
type Mode = (typeof MODES)[number];
const PREVIEW_DELAY_MS = 300;
const RECENT_DAYS = 7;

const isChannel = (value: string): value is Channel => CHANNELS.some((c) => c.channel === value);
const templatesKey = (notificationId: string, channel: string) => ['templates', notificationId, channel];

/** A type's templates for one channel (`/types/:id/templates/:channel`), and the editor of one of them. */
export function TemplatesPage() {
  const params = useParams<{ id: string; channel: string; templateId?: string }>();
  const { id: notificationId, channel, templateId } = params;
  const typeHref = `/${encodeURIComponent(notificationId)}`;
  const listHref = `${typeHref}/templates/${channel}`;
  return (
    <>
      <PageHeader
        title={templateId === undefined ? `${channelLabel(channel)} templates` : `Template ${templateId}`}
      >
        <p>
          <Link href={typeHref}>← Type {notificationId}</Link>
          {templateId !== undefined && (
            <>
              {' · '}
              <Link href={listHref}>{channelLabel(channel)} templates</Link>
            </>
          )}
        </p>
      </PageHeader>
      {!isChannel(channel) ? (
        <Empty>There is no channel {channel}.</Empty>
      ) : templateId === undefined ? (
        <TemplateList notificationId={notificationId} channel={channel} listHref={listHref} />
      ) : (
        <TemplateLoader notificationId={notificationId} channel={channel} templateId={templateId} />
      )}
    </>
  );
}

function TemplateList({
  notificationId,
  channel,
  listHref,
}: {
  notificationId: string;
  channel: Channel;
  listHref: string;
}) {
  const { can } = useSession();
  const templates = useQuery({
    queryKey: templatesKey(notificationId, channel),
    queryFn: () =>
      ok(
        api.GET('/notifications/{notificationId}/{channel}/templates', {
          params: { path: { notificationId, channel } },
        }),
      ),
  });
  return (
    <>
      {!can('admin') && <p className="note">{readOnlyNote}</p>}
      {templates.isPending && <Loading what="the templates" />}
      <ErrorNote error={templates.error} />
      {templates.data !== undefined &&
        (templates.data.length === 0 ? (
          <Empty>No {channelLabel(channel)} template yet: sends use their inline content.</Empty>
        ) : (
          <DataTable headers={['Template', 'Default for', 'Updated']}>
            {templates.data.map((t) => (
              <tr key={t.templateId}>
                <td>
                  <Link href={`${listHref}/${encodeURIComponent(t.templateId)}`} className="mono">
                    {t.templateId}
                  </Link>
                </td>
                <td>{defaultModes(t).join(', ') || '—'}</td>
                <td>
                  <When at={t.updatedAt} />
                </td>
              </tr>
            ))}
          </DataTable>
        ))}
      {can('admin') && templates.data !== undefined && (
        <>
          <CreateTemplate notificationId={notificationId} channel={channel} listHref={listHref} />
          {templates.data.length > 0 && (
            <DefaultSelection notificationId={notificationId} channel={channel} templates={templates.data} />
          )}
        </>
      )}
    </>
  );
}

const defaultModes = (t: Template): string[] => MODES.filter((mode) => t.isDefaultFor[mode] === true);

function CreateTemplate({
  notificationId,
  channel,
  listHref,
}: {
  notificationId: string;
  channel: Channel;
  listHref: string;
}) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [templateId, setTemplateId] = useState('');
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/notifications/{notificationId}/{channel}/templates', {
          params: { path: { notificationId, channel } },
          body: { templateId: templateId.trim() },
        }),
      ),
    onSuccess: async (created) => {
      await client.invalidateQueries({ queryKey: templatesKey(notificationId, channel) });
      navigate(`${listHref}/${encodeURIComponent(created.templateId)}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (templateId.trim() !== '') create.mutate();
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Create a template">
      <Field label="New template id">
        {(id) => (
          <input
            id={id}
            value={templateId}
            spellCheck={false}
            required
            onChange={(e) => setTemplateId(e.target.value)}
          />
        )}
      </Field>
      <button type="submit" disabled={create.isPending}>
        Create template
      </button>
      <ErrorNote error={create.error} />
    </form>
  );
}

/** Which template a send (instant) or a digest (hourly, daily…) of this channel renders by default. */
function DefaultSelection({
  notificationId,
  channel,
  templates,
}: {
  notificationId: string;
  channel: Channel;
  templates: Template[];
}) {
  const client = useQueryClient();
  const [templateId, setTemplateId] = useState(templates[0]?.templateId ?? '');
  const [modes, setModes] = useState<Mode[]>(['instant']);
  const select = useMutation({
    mutationFn: () =>
      ok(
        api.PATCH('/notifications/{notificationId}/{channel}/templates/default-selection', {
          params: { path: { notificationId, channel } },
          body: { templateId, modes },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: templatesKey(notificationId, channel) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (modes.length > 0) select.mutate();
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="default-title">
      <h2 id="default-title">Default selection</h2>
      <Field label="Template">
        {(id) => (
          <select id={id} value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
            {templates.map((t) => (
              <option key={t.templateId}>{t.templateId}</option>
            ))}
          </select>
        )}
      </Field>
      <fieldset>
        <legend>Default for</legend>
        {MODES.map((mode) => (
          <label key={mode} className="check">
            <input
              type="checkbox"
              checked={modes.includes(mode)}
              onChange={(e) =>
                setModes(e.target.checked ? [...modes, mode] : modes.filter((m) => m !== mode))
              }
            />{' '}
            {mode === 'instant' ? 'instant sends' : `${mode} digests`}
          </label>
        ))}
      </fieldset>
      <div className="actions">
        <button type="submit" disabled={select.isPending || modes.length === 0}>
          Make default
        </button>
      </div>
      <ErrorNote error={select.error} />
    </form>
  );
}

function TemplateLoader({
  notificationId,
  channel,
  templateId,
}: {
  notificationId: string;
  channel: Channel;
  templateId: string;
}) {
  const template = useQuery({
    queryKey: [...templatesKey(notificationId, channel), templateId],
    queryFn: () =>
      ok(
        api.GET('/notifications/{notificationId}/{channel}/templates/{templateId}', {
          params: { path: { notificationId, channel, templateId } },
        }),
      ),
    staleTime: Infinity,
  });
  if (template.isPending) return <Loading what="the template" />;
  if (template.isError) return <ErrorNote error={template.error} />;
  return <TemplateEditor key={template.data.updatedAt} template={template.data} channel={channel} />;
}

/** A value that follows `value` once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Merge tags to complete: the parameters of this type's sends in the last week (a log search) and
 * the environment's components.
 */
function useMergeTags(notificationId: string, channel: Channel): MergeTags {
  const search = useQuery({
    queryKey: ['template-parameters', notificationId],
    queryFn: () => {
      const now = Math.floor(Date.now() / 1000);
      return ok(
        api.POST('/logs/query', {
          body: { dateRangeFilter: [now - RECENT_DAYS * 86_400, now], notificationFilter: [notificationId] },
        }),
      );
    },
    staleTime: 60_000,
  });
  const queryId = search.data?.queryId;
  const result = useQuery({
    queryKey: ['template-parameters', notificationId, queryId],
    queryFn: () => ok(api.GET('/logs/query/{queryId}', { params: { path: { queryId: queryId ?? '' } } })),
    enabled: queryId !== undefined,
    staleTime: 60_000,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 500 : false),
  });
  const components = useQuery({
    queryKey: ['components'],
    queryFn: () => ok(api.GET('/components')),
    enabled: channel === 'EMAIL',
    staleTime: 60_000,
  });
  const logs = result.data?.status === 'complete' ? (result.data.logs as LogRecord[]) : undefined;
  const parameters = useMemo(() => parameterPaths((logs ?? []).map((record) => record['request'])), [logs]);
  const componentIds = useMemo(() => (components.data ?? []).map((c) => c.componentId), [components.data]);
  return useMemo(() => ({ parameters, components: componentIds }), [parameters, componentIds]);
}

function TemplateEditor({ template, channel }: { template: Template; channel: Channel }) {
  const { can } = useSession();
  const admin = can('admin');
  const client = useQueryClient();
  const { notificationId, templateId } = template;
  const [saved, setSaved] = useState<Draft>(() => draftOf(channel, template));
  const [draft, setDraft] = useState<Draft>(saved);
  const [parametersJson, setParametersJson] = useState('');
  const tags = useMergeTags(notificationId, channel);
  const fields = CHANNEL_FIELDS[channel];
  const dirty = fields.some(({ name }) => draft[name] !== saved[name]);

  const { content: previewContent, invalid } = contentOf(channel, draft, 'preview');
  const parameters = parseParameters(parametersJson);
  const request = useSettled(
    JSON.stringify({ content: previewContent, parameters: parameters.value }),
    PREVIEW_DELAY_MS,
  );
  const path = { params: { path: { notificationId, channel } } };
  const preview = useQuery({
    queryKey: ['template-preview', notificationId, channel, request],
    queryFn: () =>
      ok(
        api.POST('/notifications/{notificationId}/{channel}/templates/preview', {
          ...path,
          body: JSON.parse(request) as {
            content: typeof previewContent;
            parameters?: Record<string, unknown>;
          },
        }),
      ),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
  const problems = preview.data?.problems ?? [];

  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PATCH('/notifications/{notificationId}/{channel}/templates/{templateId}', {
          params: { path: { notificationId, channel, templateId } },
          body: contentOf(channel, draft, 'save').content,
        }),
      ),
    onSuccess: async (stored) => {
      setSaved(draftOf(channel, stored));
      await client.invalidateQueries({ queryKey: templatesKey(notificationId, channel), exact: true });
    },
  });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [, navigate] = useLocation();
  const remove = useMutation({
    mutationFn: () =>
      ok(
        api.DELETE('/notifications/{notificationId}/{channel}/templates/{templateId}', {
          params: { path: { notificationId, channel, templateId } },
        }),
      ),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: templatesKey(notificationId, channel) });
      navigate(`/${encodeURIComponent(notificationId)}/templates/${channel}`);
    },
  });

  return (
    <div className="template-editor">
      <section aria-labelledby="content-title" className="template-content">
        <h2 id="content-title">Content</h2>
        {!admin && <p className="note">{readOnlyNote} The preview works for everyone.</p>}
        <p className="hint">
          Type <code>{'{{'}</code> for a parameter of this type&apos;s recent sends
          {channel === 'EMAIL' && (
            <>
              , <code>{'{{>'}</code> for a component
            </>
          )}
          . Nothing is saved until you save.
        </p>
        {fields.map((field) =>
          field.kind === 'line' ? (
            <Field key={field.name} label={field.label}>
              {(id) => (
                <input
                  id={id}
                  value={draft[field.name] ?? ''}
                  disabled={!admin}
                  onChange={(e) => setDraft({ ...draft, [field.name]: e.target.value })}
                />
              )}
            </Field>
          ) : (
            <CodeField
              key={field.name}
              label={field.label}
              language={field.kind}
              initial={saved[field.name] ?? ''}
              readOnly={!admin}
              tags={tags}
              problems={problems
                .filter((p) => p.field === field.name)
                .map((p) => ({ line: problemLine(p.message), message: p.message }))}
              onChange={(value) => setDraft((current) => ({ ...current, [field.name]: value }))}
            />
          ),
        )}
        <Field label="Preview parameters (JSON)" hint="Empty: each merge tag shows its own name">
          {(id, hint) => (
            <textarea
              id={id}
              aria-describedby={hint}
              rows={3}
              spellCheck={false}
              className="mono"
              value={parametersJson}
              onChange={(e) => setParametersJson(e.target.value)}
            />
          )}
        </Field>
        {parameters.error && <p className="note note-error">The preview parameters are not a JSON object.</p>}
        {invalid.map((p) => (
          <p key={p.field} className="note note-error">
            {p.field} {p.message}.
          </p>
        ))}
        <ErrorNote error={save.error ?? remove.error} />
        {admin && (
          <div className="actions">
            <button
              type="button"
              disabled={!dirty || save.isPending || invalid.length > 0}
              onClick={() => save.mutate()}
            >
              Save
            </button>
            <span role="status" className="muted">
              {save.isPending ? 'Saving…' : dirty ? 'Unsaved changes' : 'Saved'}
            </span>
            {confirmDelete ? (
              <>
                <button type="button" className="danger" onClick={() => remove.mutate()}>
                  Delete template {templateId}
                </button>
                <button type="button" className="secondary" onClick={() => setConfirmDelete(false)}>
                  Keep it
                </button>
              </>
            ) : (
              <button type="button" className="secondary" onClick={() => setConfirmDelete(true)}>
                Delete…
              </button>
            )}
          </div>
        )}
        {channel === 'EMAIL' ? (
          <TestEmail notificationId={notificationId} draft={draft} />
        ) : (
          <p className="hint">Test sends exist for email only: send this type through the API to try it.</p>
        )}
      </section>
      <section aria-labelledby="preview-title" className="template-preview">
        <h2 id="preview-title">Preview</h2>
        <ErrorNote error={preview.error} />
        {problems.length > 0 && (
          <div className="note note-error" role="alert">
            <strong>Does not render:</strong>
            <ul>
              {problems.map((p) => (
                <li key={`${p.field}:${p.message}`}>
                  {p.field}: {p.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {preview.data === undefined ? (
          <Loading what="the preview" />
        ) : (
          <Preview channel={channel} answer={preview.data} />
        )}
      </section>
    </div>
  );
}

function parseParameters(json: string): { value: Record<string, unknown> | undefined; error: boolean } {
  if (json.trim() === '') return { value: undefined, error: false };
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { value: value as Record<string, unknown>, error: false };
  } catch {
    // Shown below the field; the preview keeps its samples meanwhile.
  }
  return { value: undefined, error: true };
}

function CodeField({
  label,
  ...editor
}: { label: string } & Omit<Parameters<typeof CodeEditor>[0], 'labelledBy'>) {
  const id = useId();
  return (
    <div className="field">
      <span className="field-label" id={id}>
        {label}
      </span>
      <CodeEditor labelledBy={id} {...editor} />
    </div>
  );
}

/** The draft as it is now (saved or not), mailed to the signed-in member with sample merge tags. */
function TestEmail({ notificationId, draft }: { notificationId: string; draft: Draft }) {
  const { who } = useSession();
  const [to, setTo] = useState(who.kind === 'member' ? who.email : '');
  const send = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/sender/test/email', {
          body: {
            notificationId,
            to: to.trim(),
            subject: draft['subject'] ?? '',
            html: draft['html'] ?? '',
            fromAddress: draft['senderEmail'] ?? '',
            fromName: draft['senderName'] ?? '',
            ...(draft['previewText'] ? { previewText: draft['previewText'] } : {}),
          },
        }),
      ),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (to.trim() !== '') send.mutate();
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Send a test to yourself">
      <Field label="Send a test to" hint="Your own address, or with a key a member's of this account">
        {(id, hint) => (
          <input
            id={id}
            type="email"
            aria-describedby={hint}
            value={to}
            required
            onChange={(e) => setTo(e.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="secondary" disabled={send.isPending}>
        Send a test to yourself
      </button>
      <ErrorNote error={send.error} />
      {send.data !== undefined && (
        <p role="status" className="muted">
          Sent: <span className="mono">{send.data.trackingId}</span> {send.data.messages.join(' ')}
        </p>
      )}
    </form>
  );
}
