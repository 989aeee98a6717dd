import { setTimeout as sleep } from 'node:timers/promises';

/** Delays before the 2nd, 3rd and 4th attempt of a call a provider refused for now. */
export const PROVIDER_RETRY_DELAYS_MS: readonly number[] = [1_000, 4_000, 10_000];

/**
 * Calls a provider, retrying with backoff while `transient` says its refusal may pass; the last
 * error (or the first permanent one) is thrown for the caller to classify.
 */
export async function withProviderRetries<T>(
  call: () => Promise<T>,
  transient: (error: unknown) => boolean,
  onRetry: (error: unknown, attempt: number) => void,
  delays: readonly number[] = PROVIDER_RETRY_DELAYS_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const delay = delays[attempt];
      if (delay === undefined || !transient(error)) throw error;
      onRetry(error, attempt + 1);
      await sleep(delay);
    }
  }
}
