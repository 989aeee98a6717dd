import { newOrganization, type Organization } from '../tenancy/organization';
import {
  applyProcessorEvent,
  billingEventType,
  type ProcessorSubscription,
  priceTiers,
  subscriptionStatusOf,
} from './processor-events';

const NOW = '2026-03-01T10:00:00.000Z';
const tiers = priceTiers({ price_20: 'budget_20', price_100: 'budget_100' });

/** An organization set up for billing whose checkout has not completed: no subscription is its yet. */
const unbound = (over: Partial<Organization> = {}): Organization => ({
  ...newOrganization({
    organizationId: 'org_a',
    name: 'A',
    creator: 'usr_1',
    now: '2026-01-01T00:00:00.000Z',
  }),
  accountType: 'free',
  status: 'unverified',
  stripeCustomerId: 'cus_a',
  billingAccountId: 'acct-a',
  ...over,
});
/** An organization whose checkout made subscription sub_a. */
const anOrganization = (over: Partial<Organization> = {}): Organization =>
  unbound({ stripeSubscriptionId: 'sub_a', ...over });

const aSubscription = (over: Partial<ProcessorSubscription> = {}): ProcessorSubscription => ({
  subscriptionId: 'sub_a',
  customerId: 'cus_a',
  status: 'active',
  priceId: 'price_20',
  cancelAtPeriodEnd: false,
  periodEnd: 1_775_000_000,
  ...over,
});

const onSubscription = (
  organization: Organization,
  subscription: ProcessorSubscription,
  organizationId?: string,
) =>
  applyProcessorEvent(
    organization,
    { change: { kind: 'subscription', subscription }, ...(organizationId ? { organizationId } : {}) },
    tiers,
    NOW,
  );

describe('billing after payment-processor events', () => {
  it('puts an organization on the tier of its subscription’s price: paid, its budget the cost cap', () => {
    const { outcome, organization, moves } = onSubscription(anOrganization(), aSubscription());
    expect(outcome).toBe('applied');
    expect(organization).toMatchObject({
      accountType: 'budget_20',
      organizationType: 'paid',
      costCap: 20,
      subscriptionStatus: 'active',
      stripeSubscriptionId: 'sub_a',
      status: 'verified',
      updatedAt: NOW,
    });
    expect(moves.map(billingEventType)).toEqual([
      'billing.accountType.budget_20',
      'billing.subscriptionStatus.active',
      'billing.status.verified',
    ]);
    expect(moves[0]).toEqual({ field: 'accountType', from: 'free', to: 'budget_20' });
  });

  it('changes nothing the second time the same event applies', () => {
    const once = onSubscription(anOrganization(), aSubscription()).organization;
    const twice = onSubscription(once, aSubscription());
    expect(twice).toEqual({ outcome: 'applied', organization: once, moves: [] });
  });

  it('ends where the subscription stands, whatever order the events arrive in', () => {
    const upgraded = onSubscription(anOrganization(), aSubscription({ priceId: 'price_100' }));
    const again = onSubscription(upgraded.organization, aSubscription({ priceId: 'price_100' }));
    expect(again.organization).toEqual(upgraded.organization);
    expect(upgraded.organization.accountType).toBe('budget_100');
  });

  it('marks a subscription ending at the period’s end as a pending downgrade to free, and clears it when resumed', () => {
    const cancelling = onSubscription(
      anOrganization(),
      aSubscription({ cancelAtPeriodEnd: true }),
    ).organization;
    expect(cancelling).toMatchObject({
      accountType: 'budget_20',
      pendingDowngradeAccountType: 'free',
      pendingDowngradeEffectiveDate: new Date(1_775_000_000_000).toISOString(),
    });
    const resumed = onSubscription(cancelling, aSubscription()).organization;
    expect(resumed).not.toHaveProperty('pendingDowngradeAccountType');
    expect(resumed).not.toHaveProperty('pendingDowngradeEffectiveDate');
  });

  it('puts an organization whose subscription ended back on free, with no cost cap', () => {
    const paid = onSubscription(anOrganization(), aSubscription({ cancelAtPeriodEnd: true })).organization;
    const { organization, moves } = onSubscription(paid, aSubscription({ status: 'canceled' }));
    expect(organization).toMatchObject({
      accountType: 'free',
      organizationType: 'free',
      costCap: 0,
      subscriptionStatus: 'canceled',
    });
    expect(organization).not.toHaveProperty('pendingDowngradeAccountType');
    expect(moves.map(billingEventType)).toEqual([
      'billing.accountType.free',
      'billing.subscriptionStatus.canceled',
      'billing.pendingDowngradeAccountType.none',
    ]);
  });

  it('follows the status of a subscription whose payments fail, keeping its tier', () => {
    const paid = onSubscription(anOrganization(), aSubscription()).organization;
    const { organization } = onSubscription(paid, aSubscription({ status: 'past_due' }));
    expect(organization).toMatchObject({ accountType: 'budget_20', subscriptionStatus: 'past_due' });
  });

  it('keeps the tier for a price that is not a budget tier, and grants none before the first payment', () => {
    const paid = onSubscription(anOrganization(), aSubscription()).organization;
    expect(onSubscription(paid, aSubscription({ priceId: 'price_other' })).organization).toMatchObject({
      accountType: 'budget_20',
    });
    const pending = onSubscription(anOrganization(), aSubscription({ status: 'incomplete' }));
    expect(pending.organization).toMatchObject({ accountType: 'free', stripeSubscriptionId: 'sub_a' });
    expect(pending.organization).not.toHaveProperty('subscriptionStatus');
    expect(pending.moves).toEqual([]);
  });

  it('touches no organization but the one whose customer the event names', () => {
    const other = anOrganization({ organizationId: 'org_b', stripeCustomerId: 'cus_b' });
    expect(onSubscription(other, aSubscription()).outcome).toBe('foreign');
    expect(onSubscription(anOrganization(), aSubscription(), 'org_b').outcome).toBe('foreign');
    expect(onSubscription(anOrganization({ stripeCustomerId: undefined }), aSubscription()).outcome).toBe(
      'foreign',
    );
  });

  it('does not let an old subscription ending end the one that replaced it', () => {
    const paid = onSubscription(
      anOrganization({ stripeSubscriptionId: 'sub_new' }),
      aSubscription({ subscriptionId: 'sub_new' }),
    ).organization;
    const old = onSubscription(
      paid,
      aSubscription({ subscriptionId: 'sub_old', status: 'canceled', organizationId: 'org_a' }),
    );
    expect(old.outcome).toBe('foreign');
    expect(old.organization.accountType).toBe('budget_20');
  });

  it('takes another subscription only when its metadata names the organization, never for being active', () => {
    const paid = onSubscription(anOrganization(), aSubscription()).organization;
    const elsewhere = onSubscription(paid, aSubscription({ subscriptionId: 'sub_x', priceId: 'price_100' }));
    expect(elsewhere.outcome).toBe('foreign');
    expect(elsewhere.organization).toMatchObject({ stripeSubscriptionId: 'sub_a', accountType: 'budget_20' });
    const named = onSubscription(
      paid,
      aSubscription({ subscriptionId: 'sub_b', priceId: 'price_100', organizationId: 'org_a' }),
    );
    expect(named.organization).toMatchObject({ stripeSubscriptionId: 'sub_b', accountType: 'budget_100' });
    expect(onSubscription(unbound(), aSubscription()).outcome).toBe('foreign');
    expect(onSubscription(unbound(), aSubscription({ organizationId: 'org_a' })).organization).toMatchObject({
      stripeSubscriptionId: 'sub_a',
      accountType: 'budget_20',
    });
  });

  it('binds the subscription a completed checkout made, on its tier, and verifies the organization', () => {
    const { organization, moves } = applyProcessorEvent(
      unbound({ stripeSubscriptionId: 'sub_old', subscriptionStatus: 'canceled' }),
      { change: { kind: 'checkout_completed', customerId: 'cus_a', subscription: aSubscription() } },
      tiers,
      NOW,
    );
    expect(organization).toMatchObject({
      stripeSubscriptionId: 'sub_a',
      status: 'verified',
      accountType: 'budget_20',
      subscriptionStatus: 'active',
    });
    expect(moves.map(billingEventType)).toEqual([
      'billing.accountType.budget_20',
      'billing.subscriptionStatus.active',
      'billing.status.verified',
    ]);
    const unread = applyProcessorEvent(
      unbound(),
      { change: { kind: 'checkout_completed', customerId: 'cus_a' } },
      tiers,
      NOW,
    );
    expect(unread.organization).toMatchObject({ status: 'verified', accountType: 'free' });
    const foreign = applyProcessorEvent(
      anOrganization(),
      { change: { kind: 'checkout_completed', customerId: 'cus_b' } },
      tiers,
      NOW,
    );
    expect(foreign.outcome).toBe('foreign');
  });
});

describe('price tiers and subscription statuses', () => {
  it('reads BILLING_PRICES, refusing a tier that is not a budget tier', () => {
    expect(tiers.get('price_100')).toBe('budget_100');
    expect(() => priceTiers({ price_x: 'budget_30' })).toThrow(/price_x=budget_30 names no budget tier/);
  });

  it('maps the processor’s statuses to billing’s', () => {
    expect(
      [
        'active',
        'trialing',
        'past_due',
        'unpaid',
        'paused',
        'canceled',
        'incomplete_expired',
        'incomplete',
      ].map(subscriptionStatusOf),
    ).toEqual(['active', 'active', 'past_due', 'past_due', 'paused', 'canceled', 'canceled', undefined]);
  });
});
