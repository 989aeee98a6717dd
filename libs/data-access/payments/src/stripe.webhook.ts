import type { BillingChange, PaymentWebhook, ProcessorEvent } from '@notify/domain';
import { InvalidRequestError } from '@notify/util';
import type Stripe from 'stripe';
import { idOf, invoiceSubscriptionId } from './stripe.mapping';

const FIX =
  "Send Stripe's own deliveries: the endpoint's signing secret must be STRIPE_WEBHOOK_SECRET, and a delivery older than 5 minutes is refused.";

/** The organization billing named on the object when it made it (checkout session, subscription). */
const organizationOf = (metadata: Stripe.Metadata | null | undefined, reference?: string | null) =>
  reference ?? metadata?.['organizationId'] ?? undefined;

/**
 * What billing acts on in a Stripe event; undefined for the types it ignores. Only ids are taken:
 * the subscription named is read again as it stands (the payload is shaped by the endpoint's API
 * version, and may be older than another event already handled).
 */
function changeOf(event: Stripe.Event): { change?: BillingChange; organizationId?: string } {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const customerId = idOf(session.customer);
      const subscriptionId = idOf(session.subscription);
      const organizationId = organizationOf(session.metadata, session.client_reference_id);
      return {
        ...(organizationId !== undefined ? { organizationId } : {}),
        ...(customerId === undefined
          ? {}
          : {
              change: {
                kind: 'checkout_completed',
                customerId,
                ...(subscriptionId !== undefined ? { subscriptionId } : {}),
              },
            }),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const organizationId = organizationOf(subscription.metadata);
      const customerId = idOf(subscription.customer);
      return {
        ...(organizationId !== undefined ? { organizationId } : {}),
        ...(customerId === undefined
          ? {}
          : { change: { kind: 'subscription', customerId, subscriptionId: subscription.id } }),
      };
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const customerId = idOf(invoice.customer);
      const subscriptionId = invoiceSubscriptionId(invoice);
      return customerId === undefined || subscriptionId === undefined
        ? {}
        : { change: { kind: 'subscription', customerId, subscriptionId } };
    }
    default:
      return {};
  }
}

/**
 * Stripe's webhook deliveries, checked with the SDK against the endpoint's signing secret: the
 * signature must be over these exact bytes and at most 5 minutes old (the SDK's tolerance), so a
 * forged, altered or replayed delivery is refused before anything reads it.
 */
export class StripeWebhook implements PaymentWebhook {
  constructor(
    private readonly stripe: Stripe,
    private readonly signingSecret: string,
  ) {}

  verify(rawBody: string, signatureHeader: string | undefined): ProcessorEvent {
    if (signatureHeader === undefined || signatureHeader === '')
      throw new InvalidRequestError({
        code: 'INVALID_SIGNATURE',
        message: 'The Stripe-Signature header is missing.',
        fix: FIX,
      });
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, this.signingSecret);
    } catch (error) {
      throw new InvalidRequestError({
        code: 'INVALID_SIGNATURE',
        message: `The Stripe signature does not hold: ${error instanceof Error ? error.message : 'unreadable'}`,
        fix: FIX,
      });
    }
    return { id: event.id, type: event.type, ...changeOf(event) };
  }
}
