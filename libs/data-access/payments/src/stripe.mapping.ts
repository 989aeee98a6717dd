import type { ProcessorSubscription } from '@notify/domain';
import { ProviderError } from '@notify/util';
import Stripe from 'stripe';

/** The id of an object Stripe gives either as its id or expanded. */
export const idOf = (value: string | { readonly id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : value?.id;

/** A Stripe subscription as billing reads it; `ended` for one Stripe deleted (it ended). */
export function processorSubscription(
  subscription: Stripe.Subscription,
  ended: boolean,
): ProcessorSubscription {
  const [item] = subscription.items.data;
  const priceId = item?.price.id;
  return {
    subscriptionId: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status: subscription.status,
    ...(priceId !== undefined ? { priceId } : {}),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    periodEnd: subscription.current_period_end,
    ended,
  };
}

/** Stripe's "no such object" (an id deleted or never made). */
export const isMissing = (error: unknown): boolean =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404;

/** A failed Stripe call as the 502 provider error the API answers with (the key never appears in it). */
export function providerError(error: unknown): ProviderError {
  const stripeError = error instanceof Stripe.errors.StripeError ? error : undefined;
  return new ProviderError({
    code: 'PAYMENT_PROCESSOR_ERROR',
    message: `Stripe did not complete the request: ${stripeError?.message ?? 'no answer'}`,
    fix: 'Try again in a moment; if it persists, the service operator should check the Stripe settings.',
    provider: 'stripe',
    ...(stripeError?.code !== undefined ? { providerCode: stripeError.code } : {}),
  });
}
