import { createHash } from 'node:crypto';
import type { NotificationType } from '../notification-types/notification-type';
import type { NormalizedSend } from '../sends/send-request';
import type { TenantScope } from '../tenancy/tenant-scope';
import { canonicalJson } from '../sends/canonical-json';
import type { RoutingDecision } from './route-channels';

export type Throttling = NonNullable<NotificationType['throttling']>;

const UNIT_MS: Record<Throttling['unit'], number> = {
  seconds: 1_000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  // Calendar-free, as a fixed window from the first send: 30 and 365 days.
  months: 30 * 86_400_000,
  years: 365 * 86_400_000,
};
/** "Forever": a window no send will outlive. */
const FOREVER_MS = 100 * 365 * 86_400_000;

/** The length of a throttling window: `period` × `unit`, or forever. */
export function throttleWindowMs(throttling: Throttling): number {
  return throttling.forever
    ? FOREVER_MS
    : Math.max(1, Math.round(throttling.period * UNIT_MS[throttling.unit]));
}

/**
 * The counter a send counts against: the environment's, narrowed by each field of the type's
 * throttling scope (the user, the notification). Counted in a fixed window from its first send.
 */
export function throttleKey(scope: TenantScope, throttling: Throttling, send: NormalizedSend): string {
  const byUser = throttling.scope.includes('userId') ? send.userId : '*';
  const byType = throttling.scope.includes('notificationId') ? send.notificationId : '*';
  return `throttle/${scope.accountId}/${scope.envId}/${hash(byType)}/${hash(byUser)}`;
}

/** The dedup key of a send (its type, user and content): two sends with the same one are duplicates. */
export function dedupKey(scope: TenantScope, send: NormalizedSend): string {
  const content = canonicalJson({
    templateId: send.templateId,
    subNotificationId: send.subNotificationId,
    parameters: send.parameters,
    email: send.email,
    inapp: send.inapp,
    sms: send.sms,
    call: send.call,
    web_push: send.web_push,
    mobile_push: send.mobile_push,
    slack: send.slack,
  });
  return `dedup/${scope.accountId}/${scope.envId}/${hash(send.notificationId)}/${hash(send.userId)}/${hash(content)}`;
}

/**
 * A decision with its going channels held back by throttling or deduplication: each channel that
 * would have gone out is routed `THROTTLED` / `DEDUPLICATED` and the send is `ignored`.
 */
export function suppress(decision: RoutingDecision, routing: 'THROTTLED' | 'DEDUPLICATED'): RoutingDecision {
  return {
    channels: decision.channels.map((c) =>
      c.routing === 'SEND' || c.routing === 'BATCH' ? { channel: c.channel, routing } : c,
    ),
    ignored: routing === 'THROTTLED' ? 'THROTTLING' : 'DEDUPLICATION',
    deliver: [],
  };
}

/**
 * Where a router records what deduplication and throttling have seen, shared by every router and
 * idempotent per send (its tracking id): asking again for the same send answers as the first time.
 */
export interface SuppressionLedger {
  /** Records this send as the first of its duplicates for `ttlMs`; false when another send is. */
  firstOfDuplicates(
    scope: TenantScope,
    send: NormalizedSend,
    trackingId: string,
    ttlMs: number,
  ): Promise<boolean>;
  /**
   * Counts this send once in its throttling window and answers whether `over` judged the count
   * it reached too many (a repeat gets the first answer, counting nothing).
   */
  countOnce(
    scope: TenantScope,
    throttling: Throttling,
    send: NormalizedSend,
    trackingId: string,
    over: (count: number) => boolean,
  ): Promise<boolean>;
}

/**
 * Whether the type's deduplication or throttling holds a send back: a duplicate (same type, user
 * and content within `deduplication.duration` seconds) is DEDUPLICATED before it counts against
 * the throttle; past `throttling.max` sends in a window it is THROTTLED.
 */
export async function suppressionFor(
  scope: TenantScope,
  type: Pick<NotificationType, 'deduplication' | 'throttling'>,
  send: NormalizedSend,
  trackingId: string,
  ledger: SuppressionLedger,
): Promise<'THROTTLED' | 'DEDUPLICATED' | undefined> {
  if (type.deduplication) {
    const ttl = Math.max(1, Math.round(type.deduplication.duration * 1_000));
    if (!(await ledger.firstOfDuplicates(scope, send, trackingId, ttl))) return 'DEDUPLICATED';
  }
  const { throttling } = type;
  if (!throttling) return undefined;
  const over = await ledger.countOnce(scope, throttling, send, trackingId, (count) => count > throttling.max);
  return over ? 'THROTTLED' : undefined;
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 32);
