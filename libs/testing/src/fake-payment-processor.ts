import { type CheckoutSession, type PaymentProcessor, PaymentRefusedError } from '@notify/domain';

type PriceChange = Parameters<PaymentProcessor['changeSubscriptionPrice']>[0];

/**
 * A payment processor for unit tests: records every price change and answers like Stripe, one
 * change per idempotency key; `failNext` makes the next call fail as an outage would, `refuseNext`
 * as Stripe refusing the request (a 4xx).
 */
export class FakePaymentProcessor implements PaymentProcessor {
  readonly priceChanges: PriceChange[] = [];
  private readonly keys = new Set<string>();
  private failures = 0;
  private refusals = 0;

  failNext(times = 1): void {
    this.failures = times;
  }

  refuseNext(times = 1): void {
    this.refusals = times;
  }

  ensureCustomer(input: { readonly organizationId: string; readonly customerId?: string }) {
    return Promise.resolve({ customerId: input.customerId ?? `cus_${input.organizationId}` });
  }

  createCheckoutSession(input: { readonly organizationId: string }): Promise<CheckoutSession> {
    return Promise.resolve({
      id: `cs_${input.organizationId}`,
      url: `https://checkout.test/${input.organizationId}`,
    });
  }

  changeSubscriptionPrice(input: PriceChange): Promise<void> {
    if (this.refusals > 0) {
      this.refusals--;
      return Promise.reject(
        new PaymentRefusedError({ code: 'PAYMENT_PROCESSOR_ERROR', message: 'No such price.' }),
      );
    }
    if (this.failures > 0) {
      this.failures--;
      return Promise.reject(new Error('the payment processor is unavailable'));
    }
    if (!this.keys.has(input.idempotencyKey)) this.priceChanges.push(input);
    this.keys.add(input.idempotencyKey);
    return Promise.resolve();
  }
}
