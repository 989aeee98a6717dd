import { afterMs, type DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type Channel,
  type DeliveryEvent,
  type DeliveryJob,
  type LogFields,
  logPrefix,
  type PushRefusal,
} from '@notify/domain';
import { failedEvent } from './failed-event';
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

const iso = (ms: number) => new Date(ms).toISOString();

/** How a push channel logs one device's outcome. */
export interface DeviceLog {
  readonly channel: Channel;
  /** Whether `<prefix>_delivered` names the device's token (the log does for web push subscriptions). */
  readonly deliveredToken: boolean;
}

/**
 * One device's outcome in the log at `now`: `<prefix>_sent_*` (with its token) and `_delivered_*`
 * once the push service took it, else `_failed_*` with the channel's code and the token.
 */
export function deviceEvents(
  events: DeliveryEventsPublisher,
  job: DeliveryJob,
  log: DeviceLog,
  result: DeviceResult,
  now: number,
): DeliveryEvent[] {
  const prefix = logPrefix(log.channel);
  if (!result.ok)
    return [
      failedEvent(events, job, log.channel, result.at, result.refusal.code, result.internal, {
        [`${prefix}_failed_token`]: result.token,
      } as LogFields),
    ];
  const sent = {
    [`${prefix}_sent_at`]: iso(result.at),
    [`${prefix}_sent_after`]: afterMs(job.receivedAt, result.at),
    [`${prefix}_sent_token`]: result.token,
  } as LogFields;
  const delivered = {
    [`${prefix}_delivered_at`]: iso(now),
    [`${prefix}_delivered_after`]: afterMs(job.receivedAt, now),
    ...(log.deliveredToken ? { [`${prefix}_delivered_token`]: result.token } : {}),
  } as LogFields;
  return [
    events.event(job, `${prefix}_sent`, sent, prefix, result.at),
    events.event(job, `${prefix}_delivered`, delivered, prefix, now),
  ];
}
