import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, ok } from '../api/client';
import { useSession } from '../app/session';
import { DataTable, Empty, ErrorNote, Field, Loading, When } from '../ui/kit';
import {
  draftOf,
  type Environment,
  type EnvironmentPatch,
  environmentChanges,
  PROVIDER_FIELDS,
  type ProviderKind,
  providerChange,
  providerComplete,
  SENDING_CHANNELS,
  toggled,
} from './forms';
import { Check, ConfirmButton, CopyText, NeedsRole } from './parts';

/** Environments of the account (title, secure mode, channels, tracking, own providers) and the keys of this one. */
export function EnvironmentsSettings() {
  const session = useSession();
  const canWrite = session.can('admin');
  const environments = useQuery({
    queryKey: ['settings', 'environments', session.accountId],
    queryFn: () => ok(api.GET('/environments', { params: { query: { accountId: session.accountId } } })),
  });
  return (
    <>
      <section aria-labelledby="environments-title">
        <h2 id="environments-title">Environments</h2>
        {!canWrite && <NeedsRole needed="admin" />}
        {environments.isPending && <Loading what="the environments" />}
        <ErrorNote error={environments.error} />
        {environments.data?.map((env) => (
          <EnvironmentCard key={env.clientId} env={env} canWrite={canWrite} />
        ))}
        {canWrite && <NewEnvironment />}
      </section>
      <Keys canWrite={canWrite} />
    </>
  );
}

/** After a change the shell's environment picker shows the new titles too. */
function useEnvironmentPatch(clientId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EnvironmentPatch) =>
      ok(api.PATCH('/environments/{clientId}', { params: { path: { clientId } }, body })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['settings', 'environments'] });
      await client.invalidateQueries({ queryKey: ['console-session', 'environments'] });
    },
  });
}

function EnvironmentCard({ env, canWrite }: { env: Environment; canWrite: boolean }) {
  const [draft, setDraft] = useState(() => draftOf(env));
  const save = useEnvironmentPatch(env.clientId);
  const changes = environmentChanges(env, draft);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changes !== null) save.mutate(changes);
  };
  const headingId = `env-${env.clientId}`;
  return (
    <article className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {env.title} {env.test && <span className="badge">test</span>}
      </h3>
      <dl className="facts">
        <dt>Client id</dt>
        <dd>
          <CopyText label={`client id of ${env.title}`} value={env.clientId} />
        </dd>
      </dl>
      <form onSubmit={submit} aria-label={`Settings of ${env.title}`}>
        <Field label="Title">
          {(id) => (
            <input
              id={id}
              value={draft.title}
              maxLength={200}
              required
              disabled={!canWrite}
              onChange={(event) => setDraft({ ...draft, title: event.target.value })}
            />
          )}
        </Field>
        <Check
          label="Secure mode (end users need a signed user id)"
          checked={draft.secureMode}
          disabled={!canWrite}
          onChange={(secureMode) => setDraft({ ...draft, secureMode })}
        />
        <Check
          label="Track email opens and clicks"
          checked={draft.emailTracking}
          disabled={!canWrite}
          onChange={(emailTracking) => setDraft({ ...draft, emailTracking })}
        />
        <fieldset className="channels">
          <legend>Sending turned off on</legend>
          {SENDING_CHANNELS.map(({ channel, label }) => (
            <Check
              key={channel}
              label={label}
              checked={draft.disableSending.includes(channel)}
              disabled={!canWrite}
              onChange={(on) =>
                setDraft({ ...draft, disableSending: toggled(draft.disableSending, channel, on) })
              }
            />
          ))}
        </fieldset>
        {canWrite && (
          <div className="actions">
            <button type="submit" disabled={changes === null || save.isPending}>
              Save
            </button>
            {save.isSuccess && changes === null && (
              <span role="status" className="hint">
                Saved.
              </span>
            )}
          </div>
        )}
        <ErrorNote error={save.error} />
      </form>
      <h4>Own providers</h4>
      <p className="hint">
        Without one, this environment sends through the installation&apos;s. Secrets are never shown back.
      </p>
      {(['smtpUrl', 'twilio', 'slack'] as const).map((kind) => (
        <ProviderSetting key={kind} env={env} kind={kind} canWrite={canWrite} />
      ))}
    </article>
  );
}

function ProviderSetting({
  env,
  kind,
  canWrite,
}: {
  env: Environment;
  kind: ProviderKind;
  canWrite: boolean;
}) {
  const { title, fields } = PROVIDER_FIELDS[kind];
  const [values, setValues] = useState<Record<string, string>>({});
  const [editing, setEditing] = useState(false);
  const save = useEnvironmentPatch(env.clientId);
  const current = env[kind];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(providerChange(kind, values), {
      onSuccess: () => {
        setValues({});
        setEditing(false);
      },
    });
  };
  return (
    <div className="provider">
      <p>
        <strong>{title}:</strong>{' '}
        {current === undefined ? (
          <span className="muted">not set</span>
        ) : (
          <span className="mono">{current}</span>
        )}
      </p>
      {canWrite && !editing && (
        <div className="actions">
          <button type="button" className="secondary small" onClick={() => setEditing(true)}>
            {current === undefined ? `Set ${title}` : `Replace ${title}`}
          </button>
          {current !== undefined && (
            <ConfirmButton
              label={`Remove ${title}`}
              confirm={`Remove ${title} for good`}
              busy={save.isPending}
              onConfirm={() => save.mutate(providerChange(kind, null))}
            />
          )}
        </div>
      )}
      {canWrite && editing && (
        <form onSubmit={submit} aria-label={`${title} of ${env.title}`} className="inline-form">
          {fields.map((field) => (
            <Field key={field.name} label={field.label + (field.optional === true ? ' (optional)' : '')}>
              {(id) => (
                <input
                  id={id}
                  type={field.secret === true ? 'password' : 'text'}
                  autoComplete="off"
                  spellCheck={false}
                  value={values[field.name] ?? ''}
                  onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
                />
              )}
            </Field>
          ))}
          <div className="actions">
            <button type="submit" disabled={!providerComplete(kind, values) || save.isPending}>
              Save {title}
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <ErrorNote error={save.error} />
    </div>
  );
}

function NewEnvironment() {
  const client = useQueryClient();
  const [title, setTitle] = useState('');
  const [test, setTest] = useState(false);
  const create = useMutation({
    mutationFn: () => ok(api.POST('/environments', { body: { title: title.trim(), test } })),
    onSuccess: async () => {
      setTitle('');
      await client.invalidateQueries({ queryKey: ['settings', 'environments'] });
      await client.invalidateQueries({ queryKey: ['console-session', 'environments'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() !== '') create.mutate();
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New environment">
      <Field label="New environment title">
        {(id) => (
          <input id={id} value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
        )}
      </Field>
      <Check
        label="Test environment (sandbox providers)"
        checked={test}
        disabled={false}
        onChange={setTest}
      />
      <button type="submit" disabled={create.isPending}>
        Create environment
      </button>
      {create.data !== undefined && (
        <p role="status" className="hint">
          Created {create.data.title}: its first key is on the Keys list of that environment.
        </p>
      )}
      <ErrorNote error={create.error} />
    </form>
  );
}

interface NewKey {
  id: string;
  key: string;
  name: string;
}

/** This environment's keys: a new secret is shown once, here, and never again. */
function Keys({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const keys = useQuery({ queryKey: ['settings', 'keys'], queryFn: () => ok(api.GET('/keys')) });
  const [name, setName] = useState('');
  const [keyType, setKeyType] = useState<'secret' | 'public'>('secret');
  const [created, setCreated] = useState<NewKey | null>(null);
  const create = useMutation({
    mutationFn: () => ok(api.POST('/keys', { body: { name: name.trim(), keyType } })),
    onSuccess: async (key) => {
      setCreated({ id: key.id, key: key.key, name: key.name });
      setName('');
      await client.invalidateQueries({ queryKey: ['settings', 'keys'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => ok(api.DELETE('/keys/{keyId}', { params: { path: { keyId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'keys'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() !== '') create.mutate();
  };
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API keys of this environment</h2>
      {!canWrite && <NeedsRole needed="admin" what="Creating and revoking keys" />}
      {created !== null && (
        <div className="note new-secret" role="status">
          <p>
            <strong>Key “{created.name}” created.</strong> Copy it now: it is shown only this once.
          </p>
          <CopyText label="the new key" value={created.key} />
          <div className="actions">
            <button type="button" className="secondary small" onClick={() => setCreated(null)}>
              I have copied it
            </button>
          </div>
        </div>
      )}
      {canWrite && (
        <form className="inline-form" onSubmit={submit} aria-label="New API key">
          <Field label="Key name">
            {(id) => (
              <input id={id} value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
            )}
          </Field>
          <Field label="Key type">
            {(id) => (
              <select
                id={id}
                value={keyType}
                onChange={(event) => setKeyType(event.target.value === 'public' ? 'public' : 'secret')}
              >
                <option value="secret">Secret (server)</option>
                <option value="public">Public (browser)</option>
              </select>
            )}
          </Field>
          <button type="submit" disabled={create.isPending}>
            Create key
          </button>
        </form>
      )}
      <ErrorNote error={create.error ?? revoke.error} />
      {keys.isPending && <Loading what="the keys" />}
      <ErrorNote error={keys.error} />
      {keys.data !== undefined &&
        (keys.data.keys.length === 0 ? (
          <Empty>No keys.</Empty>
        ) : (
          <DataTable headers={['Name', 'Type', 'Key', 'Created', 'Status', canWrite && 'Actions']}>
            {keys.data.keys.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>{key.keyType}</td>
                <td className="mono">{key.key}</td>
                <td>
                  <When at={key.createdAt} />
                </td>
                <td>{key.revoked ? 'revoked' : 'active'}</td>
                {canWrite && (
                  <td>
                    {!key.revoked && (
                      <ConfirmButton
                        label={`Revoke ${key.name}`}
                        confirm={`Revoke ${key.name} now`}
                        busy={revoke.isPending}
                        onConfirm={() => revoke.mutate(key.id)}
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </DataTable>
        ))}
    </section>
  );
}
