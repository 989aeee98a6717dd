import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, ApiError, ok } from '../api/client';
import { useSession } from '../app/session';
import { ErrorNote, Field, Loading } from '../ui/kit';
import { ConfirmButton, CopyText, NeedsRole } from './parts';

/** A setting that may be absent: the service answers 404 for none. */
async function orNone<T>(asking: Promise<T>): Promise<T | null> {
  try {
    return await asking;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const APN_FIELDS = [
  { name: 'KeyId', label: 'Key id (10 characters)', max: 64 },
  { name: 'TeamId', label: 'Team id', max: 64 },
  { name: 'Topic', label: 'Bundle id (topic)', max: 256 },
] as const;
type Apn = { KeyId: string; Key: string; TeamId: string; Topic: string };
const NO_APN: Apn = { KeyId: '', Key: '', TeamId: '', Topic: '' };

/**
 * This environment's own push credentials. The service answers them masked; what is typed here is
 * sent once and the inputs are emptied, so a secret is never put back into a field.
 */
export function PushSettings() {
  const canWrite = useSession().can('admin');
  return (
    <>
      {!canWrite && <NeedsRole needed="admin" />}
      <Fcm canWrite={canWrite} />
      <ApnSection canWrite={canWrite} />
      <WebPush />
    </>
  );
}

function Fcm({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const current = useQuery({
    queryKey: ['settings', 'push', 'fcm'],
    queryFn: () => orNone(ok(api.GET('/settings/push/fcm'))),
  });
  const [config, setConfig] = useState('');
  const save = useMutation({
    mutationFn: () => ok(api.PUT('/settings/push/fcm', { body: { fcmConfig: config } })),
    onSuccess: (saved) => {
      setConfig('');
      client.setQueryData(['settings', 'push', 'fcm'], saved);
    },
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/settings/push/fcm')),
    onSuccess: () => client.setQueryData(['settings', 'push', 'fcm'], null),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (config.trim() !== '') save.mutate();
  };
  return (
    <section aria-labelledby="fcm-title">
      <h2 id="fcm-title">Firebase Cloud Messaging (Android)</h2>
      {current.isPending && <Loading what="the FCM setting" />}
      <ErrorNote error={current.error ?? remove.error} />
      {current.data === null && <p className="muted">Not set: the installation&apos;s account is used.</p>}
      {current.data !== undefined && current.data !== null && (
        <pre className="code masked" tabIndex={0} aria-label="Current FCM service account (masked)">
          {current.data.fcmConfig}
        </pre>
      )}
      <form onSubmit={submit} aria-label="FCM service account">
        <Field label="Service account key file (JSON)" hint="Paste the whole file; it is stored sealed.">
          {(id, hint) => (
            <textarea
              id={id}
              aria-describedby={hint}
              rows={4}
              maxLength={32768}
              spellCheck={false}
              autoComplete="off"
              disabled={!canWrite}
              value={config}
              onChange={(event) => setConfig(event.target.value)}
            />
          )}
        </Field>
        {canWrite && (
          <div className="actions">
            <button type="submit" disabled={save.isPending || config.trim() === ''}>
              Save FCM
            </button>
            {current.data !== undefined && current.data !== null && (
              <ConfirmButton
                label="Remove FCM"
                confirm="Remove FCM for good"
                busy={remove.isPending}
                onConfirm={() => remove.mutate()}
              />
            )}
          </div>
        )}
        <ErrorNote error={save.error} />
      </form>
    </section>
  );
}

function ApnSection({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const current = useQuery({
    queryKey: ['settings', 'push', 'apn'],
    queryFn: () => orNone(ok(api.GET('/settings/push/apn'))),
  });
  const [draft, setDraft] = useState<Apn>(NO_APN);
  const save = useMutation({
    mutationFn: () => ok(api.PUT('/settings/push/apn', { body: draft })),
    onSuccess: (saved) => {
      setDraft(NO_APN);
      client.setQueryData(['settings', 'push', 'apn'], saved);
    },
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/settings/push/apn')),
    onSuccess: () => client.setQueryData(['settings', 'push', 'apn'], null),
  });
  const complete = Object.values(draft).every((v) => v.trim() !== '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (complete) save.mutate();
  };
  return (
    <section aria-labelledby="apn-title">
      <h2 id="apn-title">Apple Push Notification service (iOS)</h2>
      {current.isPending && <Loading what="the APNs setting" />}
      <ErrorNote error={current.error ?? remove.error} />
      {current.data === null && <p className="muted">Not set: the installation&apos;s key is used.</p>}
      {current.data !== undefined && current.data !== null && (
        <dl className="facts">
          <dt>Key id</dt>
          <dd className="mono">{current.data.KeyId}</dd>
          <dt>Team id</dt>
          <dd className="mono">{current.data.TeamId}</dd>
          <dt>Bundle id</dt>
          <dd className="mono">{current.data.Topic}</dd>
          <dt>Key</dt>
          <dd className="mono">{current.data.Key}</dd>
        </dl>
      )}
      <form onSubmit={submit} aria-label="APNs key" className="inline-form">
        {APN_FIELDS.map(({ name, label, max }) => (
          <Field key={name} label={label}>
            {(id) => (
              <input
                id={id}
                maxLength={max}
                spellCheck={false}
                autoComplete="off"
                disabled={!canWrite}
                value={draft[name]}
                onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
              />
            )}
          </Field>
        ))}
        <Field label="Key (.p8 file contents)">
          {(id) => (
            <textarea
              id={id}
              rows={4}
              maxLength={8192}
              spellCheck={false}
              autoComplete="off"
              disabled={!canWrite}
              value={draft.Key}
              onChange={(event) => setDraft({ ...draft, Key: event.target.value })}
            />
          )}
        </Field>
        {canWrite && (
          <div className="actions">
            <button type="submit" disabled={save.isPending || !complete}>
              Save APNs
            </button>
            {current.data !== undefined && current.data !== null && (
              <ConfirmButton
                label="Remove APNs"
                confirm="Remove APNs for good"
                busy={remove.isPending}
                onConfirm={() => remove.mutate()}
              />
            )}
          </div>
        )}
      </form>
      <ErrorNote error={save.error} />
    </section>
  );
}

function WebPush() {
  const web = useQuery({
    queryKey: ['settings', 'push', 'web'],
    queryFn: () => ok(api.GET('/settings/push/web')),
  });
  return (
    <section aria-labelledby="webpush-title">
      <h2 id="webpush-title">Web push</h2>
      <p className="hint">Browsers subscribe with this public (VAPID) key.</p>
      {web.isPending && <Loading what="the web push key" />}
      <ErrorNote error={web.error} />
      {web.data !== undefined && (
        <CopyText label="the VAPID public key" value={web.data.applicationServerKey} />
      )}
    </section>
  );
}
