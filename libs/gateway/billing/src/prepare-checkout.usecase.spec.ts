import { InvalidRequestError, NotFoundError } from '@notify/util';
import { anOwner, type BillingHarness, billingHarness } from './testing/billing.harness';

const URLS = { successUrl: 'https://app.example/billing/done', cancelUrl: 'https://app.example/billing' };

describe('PrepareCheckoutUseCase', () => {
  let h: BillingHarness;

  afterEach(() => h.close());

  describe('with billing on', () => {
    beforeEach(async () => {
      h = await billingHarness();
    });

    it('makes the organization’s customer once, bound to the caller’s account, and opens a checkout for a budget price', async () => {
      const organizationId = await h.anAccount('acct-a');
      await h.accounts.updateAccount('acct-a', { autoUpgrade: true, updatedAt: '2026-03-01T00:00:00.000Z' });
      const first = await h.prepare.execute({
        caller: anOwner('acct-a'),
        body: { ...URLS, budgetPriceId: 'price_20' },
      });
      expect(first).toMatchObject({
        organizationId,
        accountType: 'free',
        billingVersion: 1,
        status: 'unverified',
        billingCycleResetDate: '2026-03-15',
        anniversaryDate: '2026-03-15',
        autoUpgrade: true,
        stripeCustomerId: 'cus_1',
        checkoutSession: { id: 'cs_1', url: 'https://checkout.example/cs_1' },
        sessionId: 'cs_1',
        url: 'https://checkout.example/cs_1',
        updatedAt: '2026-03-10T12:00:00.000Z',
      });
      expect(h.processor.sessions).toEqual([{ customerId: 'cus_1', organizationId, priceId: 'price_20' }]);
      const again = await h.prepare.execute({ caller: anOwner('acct-a'), body: URLS });
      expect(again.stripeCustomerId).toBe('cus_1');
      expect(again).not.toHaveProperty('checkoutSession');
      expect(h.processor.customers.size).toBe(1);
      expect((await h.organizations.get(organizationId))?.billingAccountId).toBe('acct-a');
      expect((await h.history('acct-a')).map((e) => [e.type, e.actor, e.details['customerId']])).toEqual([
        ['billing.customer.created', 'member:usr_owner', 'cus_1'],
      ]);
    });

    it('moves a live subscription to the new price instead of opening a second checkout', async () => {
      const organizationId = await h.anAccount('acct-a');
      await h.prepare.execute({ caller: anOwner('acct-a'), body: URLS });
      // Past due is live too: its invoice is still being collected.
      await h.organizations.update(organizationId, (current) => ({
        ...current,
        accountType: 'budget_20',
        stripeSubscriptionId: 'sub_1',
        subscriptionStatus: 'past_due',
        updatedAt: '2026-03-03T00:00:00.000Z',
      }));
      const moved = await h.prepare.execute({
        caller: anOwner('acct-a'),
        body: { ...URLS, budgetPriceId: 'price_100' },
      });
      expect(moved).not.toHaveProperty('checkoutSession');
      expect(moved).toMatchObject({ accountType: 'budget_20', stripeSubscriptionId: 'sub_1' });
      expect(h.processor.sessions).toEqual([]);
      expect(h.processor.priceChanges).toEqual([
        {
          subscriptionId: 'sub_1',
          priceId: 'price_100',
          idempotencyKey: `price:${organizationId}:sub_1:price_100:2026-03-03T00:00:00.000Z`,
        },
      ]);
      // Once the subscription has ended, a new checkout subscribes the organization again.
      await h.organizations.update(organizationId, (current) => ({
        ...current,
        subscriptionStatus: 'canceled',
      }));
      const again = await h.prepare.execute({
        caller: anOwner('acct-a'),
        body: { ...URLS, budgetPriceId: 'price_20' },
      });
      expect(again.checkoutSession).toEqual({ id: 'cs_1', url: 'https://checkout.example/cs_1' });
      expect(h.processor.priceChanges).toHaveLength(1);
    });

    it('refuses a price that is not a budget tier’s, naming the field, before touching anything', async () => {
      const organizationId = await h.anAccount('acct-a');
      const refused = h.prepare.execute({
        caller: anOwner('acct-a'),
        body: { ...URLS, budgetPriceId: 'price_9' },
      });
      await expect(refused).rejects.toThrow(InvalidRequestError);
      await expect(refused).rejects.toThrow(/^budgetPriceId: price_9/);
      expect(h.processor.customers.size).toBe(0);
      expect((await h.organizations.get(organizationId))?.stripeCustomerId).toBeUndefined();
    });

    it('answers 404 for an account that does not exist', async () => {
      await expect(h.prepare.execute({ caller: anOwner('acct-none'), body: URLS })).rejects.toThrow(
        NotFoundError,
      );
    });
  });

  it('says billing is off, changing nothing, without a payment processor', async () => {
    h = await billingHarness({ billingOn: false });
    const organizationId = await h.anAccount('acct-a');
    await expect(h.prepare.execute({ caller: anOwner('acct-a'), body: URLS })).rejects.toMatchObject({
      code: 'BILLING_DISABLED',
    });
    expect((await h.organizations.get(organizationId))?.stripeCustomerId).toBeUndefined();
  });
});
