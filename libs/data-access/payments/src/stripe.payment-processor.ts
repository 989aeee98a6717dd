import type {
  CheckoutSession,
  PaymentProcessor,
  ProcessorSubscription,
  SubscriptionSource,
} from '@notify/domain';
import type { Logger } from '@notify/platform';
import { ProviderError } from '@notify/util';
import type Stripe from 'stripe';
import { isMissing, processorSubscription, providerError } from './stripe.mapping';

/**
 * The payment processor over the Stripe SDK. Creates carry idempotency keys: a customer's key
 * names the organization and the customer it replaces, so a retried or concurrent first setup of
 * one organization makes one customer at Stripe; a checkout session's and a price change's are the
 * SDK's per call or the caller's.
 */
export class StripePaymentProcessor implements PaymentProcessor, SubscriptionSource {
  constructor(
    private readonly stripe: Stripe,
    private readonly logger: Logger,
  ) {}

  async ensureCustomer(input: {
    readonly organizationId: string;
    readonly name: string;
    readonly customerId?: string;
  }): Promise<{ readonly customerId: string }> {
    const { organizationId, name, customerId } = input;
    try {
      if (customerId !== undefined) {
        const existing = await this.retrieveCustomer(customerId);
        if (existing !== undefined) return { customerId: existing };
      }
      const created = await this.stripe.customers.create(
        { name, metadata: { organizationId } },
        { idempotencyKey: `customer:${organizationId}:${customerId ?? 'first'}` },
      );
      return { customerId: created.id };
    } catch (error) {
      throw providerError(error, this.logger, 'ensureCustomer');
    }
  }

  async createCheckoutSession(input: {
    readonly customerId: string;
    readonly organizationId: string;
    readonly priceId: string;
    readonly successUrl: string;
    readonly cancelUrl: string;
  }): Promise<CheckoutSession> {
    const metadata = { organizationId: input.organizationId };
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: input.customerId,
        client_reference_id: input.organizationId,
        line_items: [{ price: input.priceId, quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata,
        subscription_data: { metadata },
      });
    } catch (error) {
      throw providerError(error, this.logger, 'createCheckoutSession');
    }
    if (session.url === null)
      throw new ProviderError({
        code: 'PAYMENT_PROCESSOR_ERROR',
        message: 'The payment processor made a checkout session without a page to send the buyer to.',
        provider: 'stripe',
      });
    return { id: session.id, url: session.url };
  }

  async changeSubscriptionPrice(input: {
    readonly subscriptionId: string;
    readonly priceId: string;
    readonly idempotencyKey: string;
  }): Promise<void> {
    try {
      const subscription = await this.stripe.subscriptions.retrieve(input.subscriptionId);
      const [item] = subscription.items.data;
      await this.stripe.subscriptions.update(
        input.subscriptionId,
        {
          items: [item === undefined ? { price: input.priceId } : { id: item.id, price: input.priceId }],
          proration_behavior: 'create_prorations',
        },
        { idempotencyKey: input.idempotencyKey },
      );
    } catch (error) {
      throw providerError(error, this.logger, 'changeSubscriptionPrice');
    }
  }

  async subscription(subscriptionId: string): Promise<ProcessorSubscription | undefined> {
    try {
      return processorSubscription(await this.stripe.subscriptions.retrieve(subscriptionId));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw providerError(error, this.logger, 'subscription');
    }
  }

  /** The customer's id while it exists; undefined once deleted. */
  private async retrieveCustomer(customerId: string): Promise<string | undefined> {
    try {
      const customer = await this.stripe.customers.retrieve(customerId);
      return customer.deleted === true ? undefined : customer.id;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }
}
