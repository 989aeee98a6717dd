import { PaymentRefusedError, type ProcessorSubscription } from '@notify/domain';
import type { Logger } from '@notify/platform';
import { ProviderError } from '@notify/util';
import Stripe from 'stripe';

/** The id of an object Stripe gives either as its id or expanded. */
export const idOf = (value: string | { readonly id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : value?.id;

/**
 * Fields Stripe moved after the SDK's API version (2025-02-24.acacia): from 2025-03-31 the period
 * is on each item and an invoice names its subscription under `parent`. Read in both places, since
 * a webhook endpoint shapes its payloads by its own API version, not the SDK's.
 */
interface MovedSubscriptionFields {
  readonly current_period_end?: number | null;
  readonly items: { readonly data: readonly { readonly current_period_end?: number | null }[] };
}
interface MovedInvoiceFields {
  readonly subscription?: string | { readonly id: string } | null;
  readonly parent?: {
    readonly subscription_details?: {
      readonly subscription?: string | { readonly id: string } | null;
    } | null;
  } | null;
}

/** The subscription an invoice was for, wherever the payload's API version puts it. */
export const invoiceSubscriptionId = (invoice: Stripe.Invoice): string | undefined => {
  const moved = invoice as unknown as MovedInvoiceFields;
  return idOf(moved.subscription) ?? idOf(moved.parent?.subscription_details?.subscription);
};

/** A Stripe subscription as billing reads it. */
export function processorSubscription(subscription: Stripe.Subscription): ProcessorSubscription {
  const [item] = subscription.items.data;
  const priceId = item?.price.id;
  const moved = subscription as unknown as MovedSubscriptionFields;
  const periodEnd = moved.current_period_end ?? moved.items.data[0]?.current_period_end ?? undefined;
  const organizationId = subscription.metadata['organizationId'];
  return {
    subscriptionId: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status: subscription.status,
    ...(organizationId !== undefined ? { organizationId } : {}),
    ...(priceId !== undefined ? { priceId } : {}),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    ...(periodEnd !== undefined ? { periodEnd } : {}),
  };
}

/** Stripe's "no such object" (an id deleted or never made). */
export const isMissing = (error: unknown): boolean =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404;

/**
 * A failed Stripe call as the 502 provider error the API answers with (PaymentRefusedError when
 * Stripe refused the request itself). Stripe's own text can name
 * the operator's Stripe account or a masked key, so the tenant gets a generic message; what Stripe
 * said (type, code, request id, message) goes to the service's log.
 */
export function providerError(error: unknown, logger: Logger, operation: string): ProviderError {
  const stripeError = error instanceof Stripe.errors.StripeError ? error : undefined;
  logger.error(
    stripeError === undefined
      ? { err: error, operation }
      : {
          operation,
          stripe: {
            type: stripeError.rawType ?? stripeError.type,
            code: stripeError.code,
            requestId: stripeError.requestId,
            statusCode: stripeError.statusCode,
            message: stripeError.message,
          },
        },
    'a Stripe call failed',
  );
  const details = {
    code: 'PAYMENT_PROCESSOR_ERROR',
    message: 'The payment processor did not complete the request.',
    fix: 'Try again in a moment; if it persists, the service operator should check the service log and the Stripe settings.',
    provider: 'stripe',
  };
  // A 4xx other than rate limiting is Stripe refusing the request itself: retrying cannot help.
  const status = stripeError?.statusCode;
  const refused = status !== undefined && status >= 400 && status < 500 && status !== 429;
  return refused ? new PaymentRefusedError(details) : new ProviderError(details);
}
