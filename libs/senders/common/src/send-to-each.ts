import type { PushRefusal } from '@notify/domain';
import { PROVIDER_RETRY_DELAYS_MS } from './provider-retry';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a push service said of one device. */
export type DeviceResult =
  | { readonly token: string; readonly ok: true; readonly at: number }
  | {
      readonly token: string;
      readonly ok: false;
      readonly at: number;
      readonly refusal: PushRefusal;
      readonly internal: string;
    };

/**
 * Sends to every device, then again (with backoff) to those whose refusal may pass, until each has
 * a final answer or the retries run out; the last refusal of a device still refused stands.
 */
export async function sendToEach(
  tokens: readonly string[],
  attempt: (tokens: readonly string[]) => Promise<DeviceResult[]>,
  onRetry: (pending: number, attempt: number) => void,
  delays: readonly number[] = PROVIDER_RETRY_DELAYS_MS,
): Promise<DeviceResult[]> {
  const final: DeviceResult[] = [];
  let pending = tokens;
  for (let round = 0; pending.length > 0; round++) {
    const results = await attempt(pending);
    const passing = results.filter((r) => !r.ok && r.refusal.transient);
    final.push(...results.filter((r) => r.ok || !r.refusal.transient));
    const delay = delays[round];
    if (passing.length === 0 || delay === undefined) {
      final.push(...passing);
      break;
    }
    onRetry(passing.length, round + 1);
    await sleep(delay);
    pending = passing.map((r) => r.token);
  }
  return final;
}
