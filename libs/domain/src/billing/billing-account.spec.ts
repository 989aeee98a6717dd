import { newOrganization } from '../tenancy/organization';
import { checkoutBodySchema, withCustomer } from './billing-account';

const NOW = '2026-03-01T10:00:00.000Z';
const organization = newOrganization({
  organizationId: 'org_a',
  name: 'A',
  creator: 'usr_1',
  now: '2026-01-01T00:00:00.000Z',
});

describe('billing accounts', () => {
  it('binds an organization to its customer once, set up as free and unverified, billed through the first account', () => {
    const bound = withCustomer(organization, 'cus_1', 'acct-a', NOW);
    expect(bound).toMatchObject({
      stripeCustomerId: 'cus_1',
      billingAccountId: 'acct-a',
      accountType: 'free',
      status: 'unverified',
      updatedAt: NOW,
    });
    expect(withCustomer(bound ?? organization, 'cus_1', 'acct-b', NOW)).toBeUndefined();
    const paid = {
      ...(bound ?? organization),
      accountType: 'budget_20' as const,
      status: 'verified' as const,
    };
    expect(withCustomer(paid, 'cus_2', 'acct-b', NOW)).toMatchObject({
      stripeCustomerId: 'cus_2',
      billingAccountId: 'acct-a',
      accountType: 'budget_20',
      status: 'verified',
    });
  });

  it('takes http(s) return URLs and refuses per-message prices, naming the field', () => {
    const body = { successUrl: 'https://app.example/done', cancelUrl: 'http://localhost:3000/billing' };
    expect(checkoutBodySchema.safeParse(body).success).toBe(true);
    for (const [bad, field] of [
      [{ ...body, successUrl: 'javascript:alert(1)' }, 'successUrl'],
      [{ ...body, cancelUrl: `https://app.example/${'x'.repeat(5_000)}` }, 'cancelUrl'],
      [{ ...body, messagePriceId: 'price_1' }, 'messagePriceId'],
      [{ ...body, budgetPriceId: '' }, 'budgetPriceId'],
      [{ successUrl: body.successUrl }, 'cancelUrl'],
    ] as const) {
      const parsed = checkoutBodySchema.safeParse(bad);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual([field]);
    }
  });
});
