import { z } from 'zod';
import { type Channel, channelSchema } from '../channels/channel';
import type { TenantScope } from '../tenancy/tenant-scope';
import type { UserPreference } from './preference';

/** An event about a user outside any delivery (Topics.userEvents), shaped like a webhook payload. */
export interface UserEvent extends TenantScope {
  readonly eventType: `${Channel}_UNSUBSCRIBE`;
  readonly channel: Channel;
  readonly userId: string;
  readonly notificationId: string;
  readonly subNotificationId?: string;
  /** The message whose one-click unsubscribe link turned the channel off. */
  readonly trackingId?: string;
  readonly timestamp: string;
}

/** A user event as it travels on the bus (Topics.userEvents). */
export const userEventSchema = z.object({
  accountId: z.string().min(1),
  envId: z.string().min(1),
  eventType: z.string().regex(/^[A-Z_]+_UNSUBSCRIBE$/) as unknown as z.ZodType<UserEvent['eventType']>,
  channel: channelSchema,
  userId: z.string().min(1),
  notificationId: z.string().min(1),
  subNotificationId: z.string().optional(),
  trackingId: z.string().min(1).optional(),
  timestamp: z.string(),
}) satisfies z.ZodType<UserEvent>;

/**
 * `<CHANNEL>_UNSUBSCRIBE` for each choice that turns a channel off which was not off before
 * (a channel turned off emits `<CHANNEL>_UNSUBSCRIBE`): setting `off` twice is one unsubscribe.
 */
export function unsubscribes(
  scope: TenantScope,
  userId: string,
  before: readonly UserPreference[],
  updates: readonly UserPreference[],
  timestamp: string,
): UserEvent[] {
  const key = (p: UserPreference) =>
    `${p.notificationId}\u0000${p.subNotificationId ?? ''}\u0000${p.channel}`;
  const wasOff = new Set(before.filter((p) => p.delivery === 'off').map(key));
  const events = new Map<string, UserEvent>();
  for (const update of updates) {
    if (update.delivery !== 'off' || wasOff.has(key(update))) continue;
    events.set(key(update), {
      accountId: scope.accountId,
      envId: scope.envId,
      eventType: `${update.channel}_UNSUBSCRIBE`,
      channel: update.channel,
      userId,
      notificationId: update.notificationId,
      ...(update.subNotificationId !== undefined ? { subNotificationId: update.subNotificationId } : {}),
      timestamp,
    });
  }
  return [...events.values()];
}
