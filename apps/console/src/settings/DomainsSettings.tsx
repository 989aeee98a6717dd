import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, ok, type Schemas } from '../api/client';
import { useSession } from '../app/session';
import { Empty, ErrorNote, Field, Loading, When } from '../ui/kit';
import { ConfirmButton, CopyText, NeedsRole } from './parts';

type Domain = Schemas['GetSendersResponseInner'];

/** Sending domains of this environment, the DNS records each needs and whether they are found. */
export function DomainsSettings() {
  const session = useSession();
  const canWrite = session.can('admin');
  const client = useQueryClient();
  const domains = useQuery({ queryKey: ['settings', 'domains'], queryFn: () => ok(api.GET('/domains')) });
  const [sender, setSender] = useState('');
  const add = useMutation({
    mutationFn: () => ok(api.POST('/domains', { body: { sender: sender.trim() } })),
    onSuccess: async () => {
      setSender('');
      await client.invalidateQueries({ queryKey: ['settings', 'domains'] });
    },
  });
  const remove = useMutation({
    mutationFn: (name: string) => ok(api.DELETE('/domains/{sender}', { params: { path: { sender: name } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'domains'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sender.trim() !== '') add.mutate();
  };
  return (
    <section aria-labelledby="domains-title">
      <h2 id="domains-title">Sending domains</h2>
      <p className="hint">
        Add these records at your DNS host; the status is checked again each time this page loads.
      </p>
      {!canWrite && <NeedsRole needed="admin" what="Adding and removing domains" />}
      {canWrite && (
        <form className="inline-form" onSubmit={submit} aria-label="Add a sending domain">
          <Field label="Domain or sender address">
            {(id) => (
              <input
                id={id}
                value={sender}
                maxLength={320}
                spellCheck={false}
                placeholder="acme.com"
                onChange={(event) => setSender(event.target.value)}
              />
            )}
          </Field>
          <button type="submit" disabled={add.isPending}>
            Add domain
          </button>
        </form>
      )}
      <ErrorNote error={add.error ?? remove.error} />
      {domains.isPending && <Loading what="the domains" />}
      <ErrorNote error={domains.error} />
      {domains.data !== undefined &&
        (domains.data.length === 0 ? (
          <Empty>No sending domain yet: mail goes from the installation&apos;s.</Empty>
        ) : (
          domains.data.map((domain) => (
            <DomainCard
              key={domain.sender}
              domain={domain}
              canWrite={canWrite}
              removing={remove.isPending}
              onRemove={() => remove.mutate(domain.sender)}
            />
          ))
        ))}
    </section>
  );
}

function DomainCard({
  domain,
  canWrite,
  removing,
  onRemove,
}: {
  domain: Domain;
  canWrite: boolean;
  removing: boolean;
  onRemove: () => void;
}) {
  const headingId = `domain-${domain.sender}`;
  return (
    <article className="card" aria-labelledby={headingId} data-domain={domain.sender}>
      <h3 id={headingId}>
        {domain.sender}{' '}
        <span className={`badge badge-status-${domain.status.toLowerCase()}`}>
          {domain.status.toLowerCase()}
        </span>
      </h3>
      <dl className="facts">
        <dt>Added</dt>
        <dd>
          <When at={domain.createdAt} />
        </dd>
        <dt>Last checked</dt>
        <dd>
          <When at={domain.lastSync} />
        </dd>
        {domain.mailFromDomainStatus !== undefined && (
          <>
            <dt>Return path</dt>
            <dd>{domain.mailFromDomainStatus.toLowerCase()}</dd>
          </>
        )}
        {domain.statusReason !== undefined && (
          <>
            <dt>Why</dt>
            <dd>{domain.statusReason}</dd>
          </>
        )}
      </dl>
      <h4>DNS records</h4>
      <ul className="dns-records">
        {domain.dnsRecords.map((record) => (
          <li key={`${record.purpose}-${record.name}`} className="dns-record">
            <p>
              <strong>{record.purpose}</strong> · {record.type}
              {!record.required && <span className="muted"> (optional)</span>}
            </p>
            <dl className="facts">
              <dt>Name</dt>
              <dd>
                <CopyText label={`${record.purpose} record name`} value={record.name} />
              </dd>
              <dt>Value</dt>
              <dd>
                <CopyText label={`${record.purpose} record value`} value={record.value} />
              </dd>
            </dl>
          </li>
        ))}
      </ul>
      {canWrite && (
        <div className="actions">
          <ConfirmButton
            label={`Remove ${domain.sender}`}
            confirm={`Remove ${domain.sender} for good`}
            busy={removing}
            onConfirm={onRemove}
          />
        </div>
      )}
    </article>
  );
}
