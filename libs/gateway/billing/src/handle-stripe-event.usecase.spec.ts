import type { ProcessorEvent, ProcessorSubscription } from '@notify/domain';
import { InvalidRequestError, NotFoundError } from '@notify/util';
import { anOwner, type BillingHarness, billingHarness } from './testing/billing.harness';

const URLS = { successUrl: 'https://app.example/done', cancelUrl: 'https://app.example/billing' };

const aSubscription = (over: Partial<ProcessorSubscription> = {}): ProcessorSubscription => ({
  subscriptionId: 'sub_1',
  customerId: 'cus_1',
  status: 'active',
  priceId: 'price_20',
  cancelAtPeriodEnd: false,
  periodEnd: 1_775_000_000,
  ended: false,
  ...over,
});

const subscriptionEvent = (
  id: string,
  created: number,
  over: Partial<ProcessorSubscription> = {},
  type = 'customer.subscription.updated',
): ProcessorEvent => ({
  id,
  type,
  created,
  change: { kind: 'subscription', subscription: aSubscription(over) },
});

describe('HandleStripeEventUseCase', () => {
  let h: BillingHarness;
  let organizationId: string;

  beforeEach(async () => {
    h = await billingHarness();
    organizationId = await h.anAccount('acct-a');
    await h.prepare.execute({ caller: anOwner('acct-a'), body: URLS });
  });

  afterEach(() => h.close());

  const organization = async () => h.organizations.get(organizationId);
  const billingMoves = async () =>
    (await h.history('acct-a')).filter((e) => e.type !== 'billing.customer.created').map((e) => e.type);

  it('moves the organization onto its subscription’s tier and records each move, once however often it is delivered', async () => {
    const event = subscriptionEvent('evt_1', 1_000, {}, 'customer.subscription.created');
    expect(await h.deliver(event)).toEqual({ received: true });
    await h.deliver(event);
    expect(await organization()).toMatchObject({
      accountType: 'budget_20',
      organizationType: 'paid',
      costCap: 20,
      subscriptionStatus: 'active',
      stripeSubscriptionId: 'sub_1',
    });
    expect(await billingMoves()).toEqual([
      'billing.accountType.budget_20',
      'billing.subscriptionStatus.active',
      'billing.status.verified',
    ]);
    const [move] = (await h.history('acct-a')).slice(1);
    expect(move).toMatchObject({ actor: 'stripe', details: { from: 'free', stripeEventId: 'evt_1' } });
    expect(await h.events.get('evt_1')).toMatchObject({ organizationId, outcome: 'applied' });
  });

  it('lets no older event roll a newer state back', async () => {
    await h.deliver(subscriptionEvent('evt_new', 2_000, { priceId: 'price_100' }));
    await h.deliver(subscriptionEvent('evt_old', 1_000, { priceId: 'price_20' }));
    expect((await organization())?.accountType).toBe('budget_100');
    expect(await h.events.get('evt_old')).toMatchObject({ outcome: 'stale' });
  });

  it('binds a completed checkout, and marks a pending downgrade, then free when the subscription ends', async () => {
    await h.deliver({
      id: 'evt_c',
      type: 'checkout.session.completed',
      created: 1_000,
      organizationId,
      change: { kind: 'checkout_completed', customerId: 'cus_1', subscriptionId: 'sub_1' },
    });
    expect(await organization()).toMatchObject({ stripeSubscriptionId: 'sub_1', status: 'verified' });
    await h.deliver(subscriptionEvent('evt_1', 1_001, { cancelAtPeriodEnd: true }));
    expect(await organization()).toMatchObject({
      accountType: 'budget_20',
      pendingDowngradeAccountType: 'free',
    });
    await h.deliver(
      subscriptionEvent('evt_2', 1_002, { status: 'canceled', ended: true }, 'customer.subscription.deleted'),
    );
    expect(await organization()).toMatchObject({
      accountType: 'free',
      organizationType: 'free',
      subscriptionStatus: 'canceled',
    });
    expect(await organization()).not.toHaveProperty('pendingDowngradeAccountType');
  });

  it('reads a failed payment from its subscription as it stands: past due when it says so', async () => {
    await h.deliver(subscriptionEvent('evt_1', 1_000));
    const failed: ProcessorEvent = {
      id: 'evt_f',
      type: 'invoice.payment_failed',
      created: 1_001,
      change: { kind: 'payment_failed', customerId: 'cus_1', subscriptionId: 'sub_1' },
    };
    h.processor.subscriptions.set('sub_1', aSubscription({ status: 'past_due' }));
    await h.deliver(failed);
    expect((await organization())?.subscriptionStatus).toBe('past_due');
    await h.deliver({
      ...failed,
      id: 'evt_g',
      change: { kind: 'payment_failed', customerId: 'cus_1', subscriptionId: 'sub_gone' },
    });
    expect(await h.events.get('evt_g')).toMatchObject({ outcome: 'ignored' });
  });

  it('touches no organization for another customer, another organization named, or a type it ignores', async () => {
    const other = await h.anAccount('acct-b');
    await h.prepare.execute({ caller: anOwner('acct-b'), body: URLS });
    await h.deliver({ ...subscriptionEvent('evt_x', 1_000), organizationId: other });
    await h.deliver(subscriptionEvent('evt_y', 1_000, { customerId: 'cus_unknown' }));
    await h.deliver({ id: 'evt_z', type: 'charge.refunded', created: 1_000 });
    expect((await organization())?.accountType).toBe('free');
    expect((await h.organizations.get(other))?.accountType).toBe('free');
    expect(await h.events.get('evt_x')).toMatchObject({ outcome: 'foreign' });
    expect(await h.events.get('evt_y')).toMatchObject({ outcome: 'unknown_customer' });
    expect(await h.events.get('evt_z')).toMatchObject({ outcome: 'ignored' });
  });

  it('refuses a delivery whose signature does not hold, recording nothing', async () => {
    const event = subscriptionEvent('evt_1', 1_000);
    await expect(h.deliver(event, 'forged')).rejects.toThrow(InvalidRequestError);
    expect(await h.events.get('evt_1')).toBeUndefined();
    expect((await organization())?.accountType).toBe('free');
  });

  it('answers as a missing route without a webhook signing secret', async () => {
    const off = await billingHarness({ billingOn: false });
    try {
      await expect(off.deliver(subscriptionEvent('evt_1', 1_000))).rejects.toThrow(NotFoundError);
    } finally {
      await off.close();
    }
  });
});
