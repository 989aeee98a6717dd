import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, ok } from '../api/client';
import { useSession } from '../app/session';
import { DataTable, Empty, ErrorNote, Field, Loading, When } from '../ui/kit';
import { allMessages, channelRows, historyRange, percentOf, usd } from './forms';
import { Check, NeedsRole } from './parts';

/** The account and its plan, usage this cycle and before, buying a budget tier, and the account's history. */
export function BillingSettings() {
  const session = useSession();
  return (
    <>
      <Account isOwner={session.can('owner')} />
      {session.can('admin') ? (
        <>
          <Usage />
          <History />
        </>
      ) : (
        <NeedsRole needed="admin" what="Seeing usage" />
      )}
      <Checkout isOwner={session.can('owner')} />
      <Activity />
    </>
  );
}

function Account({ isOwner }: { isOwner: boolean }) {
  const client = useQueryClient();
  const account = useQuery({ queryKey: ['settings', 'account'], queryFn: () => ok(api.GET('/account')) });
  const organization = useQuery({
    queryKey: ['settings', 'organization'],
    queryFn: () => ok(api.GET('/account/organization')),
  });
  const [autoUpgrade, setAutoUpgrade] = useState<boolean | null>(null);
  const chosen = autoUpgrade ?? account.data?.autoUpgrade ?? false;
  const save = useMutation({
    mutationFn: () => ok(api.POST('/account', { body: { autoUpgrade: chosen } })),
    onSuccess: (saved) => {
      setAutoUpgrade(null);
      client.setQueryData(['settings', 'account'], saved);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section aria-labelledby="account-title">
      <h2 id="account-title">Account and plan</h2>
      {(account.isPending || organization.isPending) && <Loading what="the account" />}
      <ErrorNote error={account.error ?? organization.error} />
      {account.data !== undefined && (
        <dl className="facts">
          <dt>Account</dt>
          <dd>
            {account.data.name} <span className="mono muted">{account.data.accountId}</span>
          </dd>
          <dt>Organization</dt>
          <dd className="mono">{account.data.organizationId}</dd>
          {organization.data !== undefined && (
            <>
              <dt>Plan</dt>
              <dd>{organization.data.organizationType}</dd>
              <dt>Cycle resets</dt>
              <dd>{organization.data.anniversaryDate}</dd>
              <dt>Budget cap</dt>
              <dd>{organization.data.costCap === 0 ? 'none' : usd(organization.data.costCap)}</dd>
            </>
          )}
        </dl>
      )}
      {account.data !== undefined && (
        <form onSubmit={submit} aria-label="Auto-upgrade">
          {!isOwner && <NeedsRole needed="owner" what="Changing auto-upgrade" />}
          <Check
            label="Auto-upgrade: move up one budget tier at 90 % of the budget"
            checked={chosen}
            disabled={!isOwner}
            onChange={setAutoUpgrade}
          />
          {isOwner && (
            <div className="actions">
              <button type="submit" disabled={save.isPending || chosen === account.data.autoUpgrade}>
                Save
              </button>
            </div>
          )}
          <ErrorNote error={save.error} />
        </form>
      )}
    </section>
  );
}

/** This cycle's usage against the plan's caps (no cap: against the cycle's own total), per channel. */
function Usage() {
  const usage = useQuery({
    queryKey: ['settings', 'usage'],
    queryFn: () => ok(api.GET('/organization/usage')),
  });
  const organization = useQuery({
    queryKey: ['settings', 'organization'],
    queryFn: () => ok(api.GET('/account/organization')),
  });
  const cap = organization.data?.messagesCap ?? 0;
  const messages = usage.data === undefined ? 0 : allMessages(usage.data.channelUsages);
  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Usage this cycle</h2>
      {usage.isPending && <Loading what="the usage" />}
      <ErrorNote error={usage.error} />
      {usage.data !== undefined && (
        <>
          <p>
            {usage.data.billingCycleStart} to {usage.data.billingCycleEnd}:{' '}
            <strong>{messages.toLocaleString()}</strong> messages
            {cap > 0 && <> of {cap.toLocaleString()}</>}, costing{' '}
            <strong>{usd(usage.data.budgetUsage)}</strong> (SMS {usd(usage.data.costSms)}, calls{' '}
            {usd(usage.data.costCall)}).
          </p>
          {cap > 0 && <Bar label="Messages against the plan" percent={percentOf(messages, cap)} />}
          <ChannelTable usages={usage.data.channelUsages} total={messages} />
        </>
      )}
    </section>
  );
}

function Bar({ label, percent }: { label: string; percent: number }) {
  return (
    <div
      className="bar"
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent} %`}
    >
      <span className="bar-fill" style={{ width: `${percent}%` }} />
    </div>
  );
}

function ChannelTable({ usages, total }: { usages: Record<string, number>; total: number }) {
  const rows = channelRows(usages);
  if (rows.length === 0) return <Empty>Nothing sent this cycle.</Empty>;
  return (
    <DataTable headers={['Channel', 'Messages', 'Share']}>
      {rows.map((row) => (
        <tr key={row.channel}>
          <td>{row.channel}</td>
          <td>{row.messages.toLocaleString()}</td>
          <td>
            <Bar label={`${row.channel} share`} percent={percentOf(row.messages, total)} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function History() {
  const [range] = useState(() => historyRange(new Date()));
  const history = useQuery({
    queryKey: ['settings', 'usage', 'history', range],
    queryFn: () => ok(api.GET('/organization/usage/history', { params: { query: range } })),
  });
  const most = Math.max(0, ...(history.data?.items ?? []).map((i) => allMessages(i.channelUsages)));
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">Usage by month</h2>
      {history.isPending && <Loading what="the usage history" />}
      <ErrorNote error={history.error} />
      {history.data !== undefined && (
        <DataTable headers={['Month', 'Messages', 'Cost', 'Against the busiest month']}>
          {history.data.items.map((item) => (
            <tr key={item.yearMonth}>
              <td>{item.yearMonth}</td>
              <td>{allMessages(item.channelUsages).toLocaleString()}</td>
              <td>{usd(item.budgetUsage)}</td>
              <td>
                <Bar
                  label={`${item.yearMonth} messages`}
                  percent={percentOf(allMessages(item.channelUsages), most)}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

/** Buying a budget tier: Stripe's checkout page is opened in this tab and comes back here. */
function Checkout({ isOwner }: { isOwner: boolean }) {
  const [priceId, setPriceId] = useState('');
  const checkout = useMutation({
    mutationFn: () => {
      const here = window.location.href;
      return ok(
        api.POST('/billing', {
          body: {
            ...(priceId.trim() === '' ? {} : { budgetPriceId: priceId.trim() }),
            successUrl: here,
            cancelUrl: here,
          },
        }),
      );
    },
    onSuccess: (answer) => {
      if (answer.checkoutSession !== undefined) window.location.assign(answer.checkoutSession.url);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    checkout.mutate();
  };
  return (
    <section aria-labelledby="checkout-title">
      <h2 id="checkout-title">Change the budget tier</h2>
      {!isOwner && <NeedsRole needed="owner" what="Buying a tier" />}
      <form className="inline-form" onSubmit={submit} aria-label="Change the budget tier">
        <Field label="Budget price id" hint="A price of the installation's BILLING_PRICES (price_…).">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              value={priceId}
              maxLength={255}
              spellCheck={false}
              disabled={!isOwner}
              onChange={(event) => setPriceId(event.target.value)}
            />
          )}
        </Field>
        {isOwner && (
          <button type="submit" disabled={checkout.isPending}>
            Continue to checkout
          </button>
        )}
      </form>
      {checkout.data !== undefined && checkout.data.checkoutSession === undefined && (
        <p role="status" className="note">
          Plan {checkout.data.accountType}
          {checkout.data.subscriptionStatus !== undefined &&
            `, subscription ${checkout.data.subscriptionStatus}`}
          .
        </p>
      )}
      <ErrorNote error={checkout.error} />
    </section>
  );
}

function Activity() {
  const history = useQuery({
    queryKey: ['settings', 'account-history'],
    queryFn: () => ok(api.GET('/account/history', { params: { query: { limit: 50 } } })),
  });
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Account activity</h2>
      {history.isPending && <Loading what="the account's history" />}
      <ErrorNote error={history.error} />
      {history.data !== undefined &&
        (history.data.events.length === 0 ? (
          <Empty>Nothing has happened to the account yet.</Empty>
        ) : (
          <DataTable headers={['When', 'What', 'Who', 'Details']}>
            {history.data.events.map((event, index) => (
              <tr key={`${event.at}-${index}`}>
                <td>
                  <When at={event.at} />
                </td>
                <td className="mono">{event.type}</td>
                <td className="mono">{event.actor}</td>
                <td>
                  {Object.entries(event.details)
                    .map(([k, v]) => `${k}: ${v}`)
                    .join(', ')}
                </td>
              </tr>
            ))}
          </DataTable>
        ))}
    </section>
  );
}
