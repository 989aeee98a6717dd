import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { api, ok, type Schemas } from '../api/client';
import { useSession } from '../app/session';
import { DataTable, Empty, ErrorNote, Field, Loading, When } from '../ui/kit';
import { usd } from './forms';
import { ConfirmButton, NeedsRole } from './parts';

type OwnedNumber = Schemas['ListPhoneNumbersResponseNumbersInner'];
interface Search {
  countryCode: string;
  areaCode: string;
  contains: string;
}

/** The account's phone numbers, buying one from those on sale, and those given back. */
export function NumbersSettings() {
  const session = useSession();
  const canWrite = session.can('admin');
  const client = useQueryClient();
  const numbers = useQuery({
    queryKey: ['settings', 'numbers'],
    queryFn: () => ok(api.GET('/numbers/list')),
  });
  const released = useQuery({
    queryKey: ['settings', 'numbers', 'released'],
    queryFn: () => ok(api.GET('/numbers/released')),
  });
  const release = useMutation({
    mutationFn: (phoneNumber: string) =>
      ok(api.DELETE('/numbers/{phoneNumber}', { params: { path: { phoneNumber } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'numbers'] }),
  });
  return (
    <>
      <section aria-labelledby="numbers-title">
        <h2 id="numbers-title">Phone numbers</h2>
        {!canWrite && <NeedsRole needed="admin" what="Buying and releasing numbers" />}
        {numbers.isPending && <Loading what="the numbers" />}
        <ErrorNote error={numbers.error ?? release.error} />
        {numbers.data !== undefined && (
          <>
            <p>
              Shared number: <span className="mono">{numbers.data.sharedNumber || '—'}</span>
            </p>
            <NumberTable
              numbers={numbers.data.numbers}
              empty="The account has no number of its own."
              action={
                canWrite
                  ? (n) => (
                      <ConfirmButton
                        label={`Release ${n.phoneNumber}`}
                        confirm={`Release ${n.phoneNumber} for good`}
                        busy={release.isPending}
                        onConfirm={() => release.mutate(n.phoneNumber)}
                      />
                    )
                  : undefined
              }
            />
          </>
        )}
      </section>
      <Available canWrite={canWrite} />
      <section aria-labelledby="released-title">
        <h2 id="released-title">Released</h2>
        {released.isPending && <Loading what="the released numbers" />}
        <ErrorNote error={released.error} />
        {released.data !== undefined && (
          <NumberTable numbers={released.data.numbers} empty="No number was released." />
        )}
      </section>
    </>
  );
}

function NumberTable({
  numbers,
  empty,
  action,
}: {
  numbers: readonly OwnedNumber[];
  empty: string;
  action?: (n: OwnedNumber) => ReactNode;
}) {
  if (numbers.length === 0) return <Empty>{empty}</Empty>;
  return (
    <DataTable
      headers={[
        'Number',
        'Country',
        'Monthly',
        'Since',
        numbers[0]?.billingStatus === 'released' ? 'Released' : 'Next rent',
        action !== undefined && 'Actions',
      ]}
    >
      {numbers.map((n) => (
        <tr key={`${n.phoneNumber}-${n.createdAt}`}>
          <td className="mono">{n.phoneNumber}</td>
          <td>{n.countryCode}</td>
          <td>{usd(n.monthlyPrice)}</td>
          <td>
            <When at={n.createdAt} />
          </td>
          <td>{n.billingStatus === 'released' ? <When at={n.releasedAt} /> : n.nextBillingDate}</td>
          {action !== undefined && <td>{action(n)}</td>}
        </tr>
      ))}
    </DataTable>
  );
}

function Available({ canWrite }: { canWrite: boolean }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<Search>({ countryCode: 'US', areaCode: '', contains: '' });
  const [search, setSearch] = useState<Search | null>(null);
  const available = useQuery({
    queryKey: ['settings', 'numbers', 'available', search],
    queryFn: () =>
      ok(
        api.GET('/numbers/available', {
          params: {
            query: {
              countryCode: search?.countryCode ?? 'US',
              ...(search?.areaCode ? { areaCode: search.areaCode } : {}),
              ...(search?.contains ? { contains: search.contains } : {}),
            },
          },
        }),
      ),
    enabled: search !== null,
  });
  const order = useMutation({
    mutationFn: (phoneNumber: string) => ok(api.POST('/numbers/order', { body: { phoneNumber } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'numbers'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch({ ...draft, countryCode: draft.countryCode.trim().toUpperCase() });
  };
  const set = (name: keyof Search) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [name]: event.target.value.trim() }));
  return (
    <section aria-labelledby="available-title">
      <h2 id="available-title">Numbers on sale</h2>
      <form className="inline-form" role="search" aria-label="Search numbers on sale" onSubmit={submit}>
        <Field label="Country (ISO code)">
          {(id) => (
            <input id={id} value={draft.countryCode} maxLength={2} required onChange={set('countryCode')} />
          )}
        </Field>
        <Field label="Area code">
          {(id) => (
            <input
              id={id}
              value={draft.areaCode}
              maxLength={5}
              inputMode="numeric"
              onChange={set('areaCode')}
            />
          )}
        </Field>
        <Field label="Contains">
          {(id) => <input id={id} value={draft.contains} maxLength={16} onChange={set('contains')} />}
        </Field>
        <button type="submit">Search</button>
      </form>
      {search !== null && available.isPending && <Loading what="the numbers on sale" />}
      <ErrorNote error={available.error ?? order.error} />
      {order.data !== undefined && (
        <p role="status" className="note">
          Bought {order.data.phoneNumber} ({order.data.status}).
        </p>
      )}
      {available.data !== undefined &&
        (available.data.numbers.length === 0 ? (
          <Empty>None on sale for that search.</Empty>
        ) : (
          <DataTable headers={['Number', 'Where', 'Can', 'Monthly', canWrite && 'Actions']}>
            {available.data.numbers.map((n) => (
              <tr key={n.phoneNumber}>
                <td className="mono">{n.phoneNumber}</td>
                <td>{[n.locality, n.administrativeArea].filter(Boolean).join(', ')}</td>
                <td>{n.features.join(', ')}</td>
                <td>{usd(n.monthlyPrice)}</td>
                {canWrite && (
                  <td>
                    <ConfirmButton
                      label={`Buy ${n.phoneNumber}`}
                      confirm={`Buy for ${usd(n.monthlyPrice)} a month`}
                      busy={order.isPending}
                      onConfirm={() => order.mutate(n.phoneNumber)}
                    />
                  </td>
                )}
              </tr>
            ))}
          </DataTable>
        ))}
    </section>
  );
}
