import { billingCycle, type ProcessorEvent, type ProcessorSubscription } from '@notify/domain';
import { InvalidRequestError, NotFoundError } from '@notify/util';
import { anOwner, type BillingHarness, billingHarness } from './testing/billing.harness';

const URLS = { successUrl: 'https://app.example/done', cancelUrl: 'https://app.example/billing' };

const aSubscription = (over: Partial<ProcessorSubscription> = {}): ProcessorSubscription => ({
  subscriptionId: 'sub_1',
  customerId: 'cus_1',
  status: 'active',
  organizationId: 'org_acct-a',
  priceId: 'price_20',
  cancelAtPeriodEnd: false,
  periodEnd: 1_775_000_000,
  ...over,
});

/** An event naming subscription sub_1 of customer cus_1; what it means is read from the processor. */
const subscriptionEvent = (
  id: string,
  type = 'customer.subscription.updated',
  over: { customerId?: string; subscriptionId?: string } = {},
): ProcessorEvent => ({
  id,
  type,
  change: { kind: 'subscription', customerId: 'cus_1', subscriptionId: 'sub_1', ...over },
});

const checkoutCompleted = (id: string, organizationId: string): ProcessorEvent => ({
  id,
  type: 'checkout.session.completed',
  organizationId,
  change: { kind: 'checkout_completed', customerId: 'cus_1', subscriptionId: 'sub_1' },
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
  const subscriptionIs = (over: Partial<ProcessorSubscription> = {}) =>
    h.processor.subscriptions.set('sub_1', aSubscription(over));
  const billingMoves = async () =>
    (await h.history('acct-a')).filter((e) => e.type !== 'billing.customer.created').map((e) => e.type);

  it('moves the organization onto its subscription’s tier and records each move, once however often it is delivered', async () => {
    subscriptionIs();
    const event = subscriptionEvent('evt_1', 'customer.subscription.created');
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

  it('lifts a usage refusal when the tier goes up, and only then', async () => {
    const now = Date.parse('2026-03-10T12:00:00.000Z');
    await h.limits.block(organizationId, '2026-04-15', now);
    subscriptionIs();
    await h.deliver(subscriptionEvent('evt_1', 'customer.subscription.created'));
    expect(await h.limits.blockedUntil(organizationId, now)).toBeUndefined();
    await h.limits.block(organizationId, '2026-04-15', now);
    subscriptionIs({ cancelAtPeriodEnd: true });
    await h.deliver(subscriptionEvent('evt_2'));
    expect(await h.limits.blockedUntil(organizationId, now)).toBe('2026-04-15');
    subscriptionIs({ priceId: 'price_100' });
    await h.deliver(subscriptionEvent('evt_3'));
    expect(await h.limits.blockedUntil(organizationId, now)).toBeUndefined();
  });

  it('lifts a refusal whose lift failed when Stripe retries, though the retry finds the move stored', async () => {
    const now = h.clock.now();
    const { createdAt } = (await organization()) ?? { createdAt: '' };
    const item = { key: 'evt-m', channel: 'EMAIL' as const, messages: 1 as const, costMicros: 5_000_000 };
    await h.usage.apply(
      organizationId,
      billingCycle(createdAt, now),
      [{ item, month: '2026-03', partition: 0, offset: '1' }],
      new Date(now).toISOString(),
    );
    await h.limits.block(organizationId, '2026-04-15', now);
    subscriptionIs();
    jest.spyOn(h.limits, 'lift').mockRejectedValueOnce(new Error('coordination store down'));
    await expect(h.deliver(subscriptionEvent('evt_1'))).rejects.toThrow('coordination store down');
    expect((await organization())?.accountType).toBe('budget_20');
    expect(await h.limits.blockedUntil(organizationId, now)).toBe('2026-04-15');
    await h.deliver(subscriptionEvent('evt_1'));
    expect(await h.limits.blockedUntil(organizationId, now)).toBeUndefined();
  });

  it('keeps the history of an event whose handling crashed after the organization was stored, recording it once', async () => {
    subscriptionIs();
    const store = h.organizations.update.bind(h.organizations);
    jest.spyOn(h.organizations, 'update').mockImplementationOnce(async (id, change) => {
      await store(id, change);
      throw new Error('the service stopped here');
    });
    await expect(h.deliver(subscriptionEvent('evt_1'))).rejects.toThrow('the service stopped here');
    expect(await h.events.get('evt_1')).toBeUndefined();
    await h.deliver(subscriptionEvent('evt_1'));
    expect((await organization())?.accountType).toBe('budget_20');
    expect(await billingMoves()).toEqual([
      'billing.accountType.budget_20',
      'billing.subscriptionStatus.active',
      'billing.status.verified',
    ]);
  });

  it('records the history once when the handling crashed before the organization was stored', async () => {
    subscriptionIs();
    jest.spyOn(h.organizations, 'update').mockRejectedValueOnce(new Error('the service stopped here'));
    await expect(h.deliver(subscriptionEvent('evt_1'))).rejects.toThrow('the service stopped here');
    expect((await organization())?.accountType).toBe('free');
    await h.deliver(subscriptionEvent('evt_1'));
    expect((await organization())?.accountType).toBe('budget_20');
    expect(await billingMoves()).toEqual([
      'billing.accountType.budget_20',
      'billing.subscriptionStatus.active',
      'billing.status.verified',
    ]);
  });

  it('applies the subscription as it stands, whatever order the events arrive in', async () => {
    subscriptionIs({ priceId: 'price_100' });
    await h.deliver(subscriptionEvent('evt_new'));
    // An event made before the upgrade arrives late: the subscription is on price_100 now.
    await h.deliver(subscriptionEvent('evt_old'));
    expect((await organization())?.accountType).toBe('budget_100');
    expect(await h.events.get('evt_old')).toMatchObject({ outcome: 'applied' });
  });

  it('keeps the paid tier when the subscription’s update arrives after the completed checkout', async () => {
    subscriptionIs();
    await h.deliver(checkoutCompleted('evt_checkout', organizationId));
    await h.deliver(subscriptionEvent('evt_updated'));
    expect(await organization()).toMatchObject({
      stripeSubscriptionId: 'sub_1',
      status: 'verified',
      accountType: 'budget_20',
      subscriptionStatus: 'active',
    });
    expect(await h.events.get('evt_updated')).toMatchObject({ outcome: 'applied' });
  });

  it('binds a completed checkout, and marks a pending downgrade, then free when the subscription ends', async () => {
    subscriptionIs();
    await h.deliver(checkoutCompleted('evt_c', organizationId));
    expect(await organization()).toMatchObject({ stripeSubscriptionId: 'sub_1', status: 'verified' });
    subscriptionIs({ cancelAtPeriodEnd: true });
    await h.deliver(subscriptionEvent('evt_1'));
    expect(await organization()).toMatchObject({
      accountType: 'budget_20',
      pendingDowngradeAccountType: 'free',
    });
    subscriptionIs({ status: 'canceled', cancelAtPeriodEnd: true });
    await h.deliver(subscriptionEvent('evt_2', 'customer.subscription.deleted'));
    expect(await organization()).toMatchObject({
      accountType: 'free',
      organizationType: 'free',
      subscriptionStatus: 'canceled',
    });
    expect(await organization()).not.toHaveProperty('pendingDowngradeAccountType');
  });

  it('reads a failed payment from its subscription as it stands: past due when it says so', async () => {
    subscriptionIs();
    await h.deliver(subscriptionEvent('evt_1'));
    subscriptionIs({ status: 'past_due' });
    await h.deliver(subscriptionEvent('evt_f', 'invoice.payment_failed'));
    expect((await organization())?.subscriptionStatus).toBe('past_due');
    await h.deliver(subscriptionEvent('evt_g', 'invoice.payment_failed', { subscriptionId: 'sub_gone' }));
    expect(await h.events.get('evt_g')).toMatchObject({ outcome: 'ignored' });
  });

  it('never takes a subscription made elsewhere for the customer because it is active', async () => {
    subscriptionIs();
    await h.deliver(checkoutCompleted('evt_c', organizationId));
    const { organizationId: _named, ...unnamed } = aSubscription({
      subscriptionId: 'sub_other',
      priceId: 'price_100',
    });
    h.processor.subscriptions.set('sub_other', unnamed);
    await h.deliver(
      subscriptionEvent('evt_other', 'customer.subscription.created', { subscriptionId: 'sub_other' }),
    );
    expect(await organization()).toMatchObject({ stripeSubscriptionId: 'sub_1', accountType: 'budget_20' });
    expect(await h.events.get('evt_other')).toMatchObject({ outcome: 'foreign' });
  });

  it('touches no organization for another customer, another organization named, or a type it ignores', async () => {
    subscriptionIs();
    const other = await h.anAccount('acct-b');
    await h.prepare.execute({ caller: anOwner('acct-b'), body: URLS });
    h.processor.subscriptions.set(
      'sub_unknown',
      aSubscription({ subscriptionId: 'sub_unknown', customerId: 'cus_unknown' }),
    );
    await h.deliver({ ...subscriptionEvent('evt_x'), organizationId: other });
    await h.deliver(
      subscriptionEvent('evt_y', undefined, { customerId: 'cus_unknown', subscriptionId: 'sub_unknown' }),
    );
    await h.deliver(subscriptionEvent('evt_w', undefined, { customerId: 'cus_2' }));
    await h.deliver({ id: 'evt_z', type: 'charge.refunded' });
    expect((await organization())?.accountType).toBe('free');
    expect((await h.organizations.get(other))?.accountType).toBe('free');
    expect(await h.events.get('evt_x')).toMatchObject({ outcome: 'foreign' });
    expect(await h.events.get('evt_y')).toMatchObject({ outcome: 'unknown_customer' });
    // The subscription Stripe holds is another customer's than the event named.
    expect(await h.events.get('evt_w')).toMatchObject({ outcome: 'ignored' });
    expect(await h.events.get('evt_z')).toMatchObject({ outcome: 'ignored' });
  });

  it('applies nothing when more than one organization holds the customer, answering Stripe 200', async () => {
    subscriptionIs();
    const twin = await h.anAccount('acct-twin', { stripeCustomerId: 'cus_1' });
    expect(await h.deliver(subscriptionEvent('evt_1'))).toEqual({ received: true });
    expect((await organization())?.accountType).toBe('free');
    expect((await h.organizations.get(twin))?.accountType).toBeUndefined();
    expect(await h.events.get('evt_1')).toMatchObject({ outcome: 'ambiguous_customer' });
    expect(await h.events.get('evt_1')).not.toHaveProperty('organizationId');
  });

  it('refuses a delivery whose signature does not hold, recording nothing', async () => {
    subscriptionIs();
    const event = subscriptionEvent('evt_1');
    await expect(h.deliver(event, 'forged')).rejects.toThrow(InvalidRequestError);
    expect(await h.events.get('evt_1')).toBeUndefined();
    expect((await organization())?.accountType).toBe('free');
  });

  it('answers as a missing route without a webhook signing secret', async () => {
    const off = await billingHarness({ billingOn: false });
    try {
      await expect(off.deliver(subscriptionEvent('evt_1'))).rejects.toThrow(NotFoundError);
    } finally {
      await off.close();
    }
  });
});
