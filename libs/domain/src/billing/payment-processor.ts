import { ProviderError } from '@notify/util';

/**
 * The payment processor (Stripe) as billing needs it. The adapter keeps the SDK's types to itself;
 * callers see organizations, prices and sessions.
 */
export interface CheckoutSession {
  readonly id: string;
  readonly url: string;
}

export interface PaymentProcessor {
  /** The organization's customer: the one named (when it still exists) or a new one. */
  ensureCustomer(input: {
    readonly organizationId: string;
    readonly name: string;
    readonly customerId?: string;
  }): Promise<{ readonly customerId: string }>;
  /** A hosted checkout page subscribing the customer to a monthly budget price. */
  createCheckoutSession(input: {
    readonly customerId: string;
    readonly organizationId: string;
    readonly priceId: string;
    readonly successUrl: string;
    readonly cancelUrl: string;
  }): Promise<CheckoutSession>;
  /**
   * Moves the subscription to another price (prorated). `idempotencyKey` makes a retried call one
   * change at the processor.
   */
  changeSubscriptionPrice(input: {
    readonly subscriptionId: string;
    readonly priceId: string;
    readonly idempotencyKey: string;
  }): Promise<void>;
}

/**
 * The processor refused the request itself (a 4xx other than 429: a price or subscription it does
 * not know, a state that forbids the change): the same request cannot succeed on a retry. Answered
 * to a tenant like any other processor failure (502).
 */
export class PaymentRefusedError extends ProviderError {}

export const PAYMENT_PROCESSOR = Symbol('PAYMENT_PROCESSOR');
