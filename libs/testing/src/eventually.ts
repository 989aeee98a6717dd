import { sleep } from './helpers';

/** Polls `probe` until it returns without throwing, or rethrows its last error after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(intervalMs);
    }
  }
}

/**
 * Waits out the end of the current wall-clock minute when it is less than `marginMs` away, so a
 * test counting against per-minute windows (rate limits) does not straddle two of them.
 */
export async function awayFromMinuteBoundary(marginMs = 3_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await sleep(left + 50);
}
