import { InvalidRequestError } from '@notify/util';
import { stripeClient } from './stripe.client';
import { StripeWebhook } from './stripe.webhook';

const SECRET = 'whsec_test_secret';
const stripe = stripeClient({ secretKey: 'sk_test_123' });
const webhook = new StripeWebhook(stripe, SECRET);
const nowSeconds = () => Math.floor(Date.now() / 1_000);

const subscriptionEvent = (type: string, over: object = {}) =>
  JSON.stringify({
    id: 'evt_1',
    type,
    created: 1_700_000_000,
    data: {
      object: {
        id: 'sub_1',
        object: 'subscription',
        customer: 'cus_1',
        status: 'active',
        cancel_at_period_end: true,
        current_period_end: 1_702_000_000,
        metadata: { organizationId: 'org_1' },
        items: { data: [{ id: 'si_1', price: { id: 'price_20' } }] },
        ...over,
      },
    },
  });

const signed = (payload: string, secret = SECRET, timestamp = nowSeconds()) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

describe('StripeWebhook', () => {
  it('reads a signed subscription event as the subscription, customer and organization it names', () => {
    const payload = subscriptionEvent('customer.subscription.deleted');
    expect(webhook.verify(payload, signed(payload))).toEqual({
      id: 'evt_1',
      type: 'customer.subscription.deleted',
      organizationId: 'org_1',
      change: { kind: 'subscription', customerId: 'cus_1', subscriptionId: 'sub_1' },
    });
  });

  it('reads a completed checkout and a failed payment (the invoice’s subscription in either API version’s place), and ignores other types', () => {
    const checkout = JSON.stringify({
      id: 'evt_2',
      type: 'checkout.session.completed',
      created: 1,
      data: {
        object: { customer: 'cus_1', subscription: 'sub_1', client_reference_id: 'org_1', metadata: {} },
      },
    });
    expect(webhook.verify(checkout, signed(checkout))).toMatchObject({
      organizationId: 'org_1',
      change: { kind: 'checkout_completed', customerId: 'cus_1', subscriptionId: 'sub_1' },
    });
    const invoices = [
      { customer: { id: 'cus_1' }, subscription: 'sub_1' },
      // From API version 2025-03-31 on.
      { customer: 'cus_1', parent: { subscription_details: { subscription: 'sub_1' } } },
    ];
    for (const invoice of invoices) {
      const failed = JSON.stringify({
        id: 'evt_3',
        type: 'invoice.payment_failed',
        created: 1,
        data: { object: invoice },
      });
      expect(webhook.verify(failed, signed(failed)).change).toEqual({
        kind: 'subscription',
        customerId: 'cus_1',
        subscriptionId: 'sub_1',
      });
    }
    const other = JSON.stringify({ id: 'evt_4', type: 'charge.refunded', created: 1, data: { object: {} } });
    expect(webhook.verify(other, signed(other))).toEqual({ id: 'evt_4', type: 'charge.refunded' });
  });

  it('refuses a delivery signed with another secret, altered, stale or unsigned', () => {
    const payload = subscriptionEvent('customer.subscription.updated');
    const refusals = [
      () => webhook.verify(payload, signed(payload, 'whsec_other')),
      () => webhook.verify(payload.replace('price_20', 'price_99'), signed(payload)),
      () => webhook.verify(payload, signed(payload, SECRET, nowSeconds() - 301)),
      () => webhook.verify(payload, undefined),
      () => webhook.verify(payload, 't=1,v1=00'),
    ];
    for (const refusal of refusals) {
      expect(refusal).toThrow(InvalidRequestError);
      expect(refusal).toThrow(expect.objectContaining({ code: 'INVALID_SIGNATURE' }));
    }
  });
});
