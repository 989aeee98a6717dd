import type { RetryPolicy } from './event-bus.port';

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  initialBackoffMs: 200,
  maxBackoffMs: 10_000,
  transientWindowMs: 0,
};

/** Exponential backoff with full jitter (attempt is 1-based: the delay after that attempt failed). */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export class AbortedError extends Error {
  constructor() {
    super('consumer is shutting down');
    this.name = 'AbortedError';
  }
}

/** Sleeps, waking early (with AbortedError) when the consumer shuts down. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new AbortedError());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
