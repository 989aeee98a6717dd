import { freePort, requireBackend, testBackends, testLogger } from '@notify/testing';
import { ProviderError } from '@notify/util';
import type Stripe from 'stripe';
import { stripeClient } from './stripe.client';
import { StripePaymentProcessor } from './stripe.payment-processor';

const SECRET_KEY = 'sk_test_123';

/**
 * The Stripe adapter against stripe-mock (tools/infra), which answers every call of Stripe's API
 * with its fixtures: this checks the calls are well-formed and read right, not Stripe's state.
 */
describe('StripePaymentProcessor (stripe-mock)', () => {
  let stripe: Stripe;
  let processor: StripePaymentProcessor;
  /** The idempotency key of each POST the SDK sent, by path. */
  let keys: { path: string; key: string | undefined }[];

  beforeAll(async () => {
    await requireBackend('stripe-mock');
  });

  beforeEach(() => {
    stripe = stripeClient({ secretKey: SECRET_KEY, apiUrl: testBackends.stripeApiUrl });
    processor = new StripePaymentProcessor(stripe, testLogger());
    keys = [];
    stripe.on('request', (event) => {
      if (event.method === 'POST') keys.push({ path: event.path, key: event.idempotency_key });
    });
  });

  it('makes an organization’s first customer under a key naming the organization, the same on every retry', async () => {
    const first = await processor.ensureCustomer({ organizationId: 'org_1', name: 'Acme' });
    expect(first.customerId).toMatch(/^cus_/);
    await processor.ensureCustomer({ organizationId: 'org_1', name: 'Acme' });
    expect(keys).toEqual([
      { path: '/v1/customers', key: 'customer:org_1:first' },
      { path: '/v1/customers', key: 'customer:org_1:first' },
    ]);
  });

  it('keeps a customer that exists, making none', async () => {
    expect(
      await processor.ensureCustomer({ organizationId: 'org_1', name: 'Acme', customerId: 'cus_kept' }),
    ).toEqual({
      customerId: 'cus_kept',
    });
    expect(keys).toEqual([]);
  });

  it('opens a checkout session for a budget price, with the page to send the buyer to', async () => {
    const session = await processor.createCheckoutSession({
      customerId: 'cus_1',
      organizationId: 'org_1',
      priceId: 'price_budget_20',
      successUrl: 'https://app.example/billing/done',
      cancelUrl: 'https://app.example/billing',
    });
    expect(session.id).toMatch(/^cs_/);
    expect(new URL(session.url).protocol).toBe('https:');
    expect(keys).toEqual([{ path: '/v1/checkout/sessions', key: expect.any(String) }]);
  });

  it('moves a subscription to another price under the caller’s idempotency key', async () => {
    await processor.changeSubscriptionPrice({
      subscriptionId: 'sub_1',
      priceId: 'price_budget_50',
      idempotencyKey: 'upgrade:org_1:2026-03-01',
    });
    expect(keys).toEqual([{ path: '/v1/subscriptions/sub_1', key: 'upgrade:org_1:2026-03-01' }]);
  });

  it('reads a subscription as it stands', async () => {
    const subscription = await processor.subscription('sub_1');
    expect(subscription).toMatchObject({
      subscriptionId: 'sub_1',
      customerId: expect.stringMatching(/^cus_/),
      status: expect.any(String),
      cancelAtPeriodEnd: expect.any(Boolean),
      periodEnd: expect.any(Number),
    });
  });

  it('answers a 502 provider error when Stripe refuses or cannot be reached', async () => {
    const unknownKey = new StripePaymentProcessor(
      stripeClient({ secretKey: 'sk_wrong', apiUrl: testBackends.stripeApiUrl }),
      testLogger(),
    );
    const refused = await unknownKey
      .ensureCustomer({ organizationId: 'org_1', name: 'Acme' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    // stripe-mock's refusal quotes the Authorization header: none of Stripe's text reaches the tenant.
    expect(refused).toMatchObject({ message: 'The payment processor did not complete the request.' });
    const down = new StripePaymentProcessor(
      stripeClient({ secretKey: SECRET_KEY, apiUrl: `http://127.0.0.1:${await freePort()}` }),
      testLogger(),
    );
    const error = await down
      .ensureCustomer({ organizationId: 'org_1', name: 'Acme' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PAYMENT_PROCESSOR_ERROR', provider: 'stripe' });
    expect(String((error as Error).message)).not.toContain(SECRET_KEY);
  });
});
