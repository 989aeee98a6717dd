import Stripe from 'stripe';

/** Stripe's settings in config: the secret key, and another address than api.stripe.com (stripe-mock in tests). */
export interface StripeSettings {
  readonly secretKey: string;
  readonly apiUrl?: string;
}

/** Per request: Stripe answers in well under this; a hung connection must not hold an API call. */
const STRIPE_TIMEOUT_MS = 10_000;
/**
 * Retries of a request that failed on the network or with a retryable status (409 lock, 429, 5xx).
 * The SDK sends every retry of a POST with the same idempotency key (its own when none is given),
 * so a retried create is one object at Stripe.
 */
const STRIPE_NETWORK_RETRIES = 2;

/** The SDK client, at STRIPE_API_URL's host, port and protocol when set (its path is not used). */
export function stripeClient(settings: StripeSettings): Stripe {
  const url = settings.apiUrl === undefined ? undefined : new URL(settings.apiUrl);
  const protocol = url?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(settings.secretKey, {
    ...(url === undefined
      ? {}
      : { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol }),
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: STRIPE_NETWORK_RETRIES,
    telemetry: false,
    appInfo: { name: 'notify' },
  });
}
