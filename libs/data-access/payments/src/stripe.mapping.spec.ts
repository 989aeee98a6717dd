import { PaymentRefusedError } from '@notify/domain';
import { createLogger } from '@notify/platform';
import { testLogger } from '@notify/testing';
import { ProviderError } from '@notify/util';
import Stripe from 'stripe';
import { processorSubscription, providerError } from './stripe.mapping';

const aSubscription = (over: object = {}) =>
  ({
    id: 'sub_1',
    object: 'subscription',
    customer: { id: 'cus_1' },
    status: 'past_due',
    cancel_at_period_end: false,
    metadata: { organizationId: 'org_1' },
    items: { object: 'list', data: [{ id: 'si_1', price: { id: 'price_20' } }] },
    ...over,
  }) as unknown as Stripe.Subscription;

describe('Stripe mapping', () => {
  it('reads a subscription’s period end on the subscription (the SDK’s API version) or on its item (later ones)', () => {
    const expected = {
      subscriptionId: 'sub_1',
      customerId: 'cus_1',
      status: 'past_due',
      organizationId: 'org_1',
      priceId: 'price_20',
      cancelAtPeriodEnd: false,
      periodEnd: 1_702_000_000,
    };
    expect(processorSubscription(aSubscription({ current_period_end: 1_702_000_000 }))).toEqual(expected);
    const later = aSubscription({
      items: {
        object: 'list',
        data: [{ id: 'si_1', price: { id: 'price_20' }, current_period_end: 1_702_000_000 }],
      },
    });
    expect(processorSubscription(later)).toEqual(expected);
  });

  it('answers the tenant a generic 502 and logs what Stripe said', () => {
    const logs: Record<string, unknown>[] = [];
    const logger = createLogger({
      level: 'info',
      service: 'test',
      destination: { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) },
    });
    const said =
      'No such customer: cus_1; a similar object exists in live mode, but a test mode key (sk_test_***123) was used';
    const error = providerError(
      new Stripe.errors.StripeInvalidRequestError({
        message: said,
        type: 'invalid_request_error',
        code: 'resource_missing',
        requestId: 'req_1',
        statusCode: 404,
      }),
      logger,
      'ensureCustomer',
    );
    expect(error).toMatchObject({
      code: 'PAYMENT_PROCESSOR_ERROR',
      message: 'The payment processor did not complete the request.',
    });
    expect(JSON.stringify(error)).not.toContain('sk_test');
    expect(String(error.fix)).not.toContain('sk_test');
    expect(logs).toEqual([
      expect.objectContaining({
        operation: 'ensureCustomer',
        stripe: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          requestId: 'req_1',
          statusCode: 404,
          message: said,
        },
      }),
    ]);
  });

  it('tells a request Stripe refused (4xx but 429) from a failure a retry may cure', () => {
    const logger = testLogger();
    const failure = (statusCode?: number) =>
      providerError(
        new Stripe.errors.StripeInvalidRequestError({
          message: 'm',
          type: 'invalid_request_error',
          statusCode,
        }),
        logger,
        'changeSubscriptionPrice',
      );
    expect(failure(400)).toBeInstanceOf(PaymentRefusedError);
    expect(failure(404)).toBeInstanceOf(PaymentRefusedError);
    for (const status of [429, 500, undefined]) {
      expect(failure(status)).toBeInstanceOf(ProviderError);
      expect(failure(status)).not.toBeInstanceOf(PaymentRefusedError);
    }
    expect(providerError(new Error('socket hang up'), logger, 'x')).not.toBeInstanceOf(PaymentRefusedError);
  });
});
