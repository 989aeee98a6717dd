import type { Channel } from '../channels/channel';
import type { TenantScope } from '../tenancy/tenant-scope';
import type { UserPreference } from './preference';

/** An event about a user outside any delivery (Topics.userEvents), shaped like a webhook payload (decisions 7). */
export interface UserEvent extends TenantScope {
  readonly eventType: `${Channel}_UNSUBSCRIBE`;
  readonly channel: Channel;
  readonly userId: string;
  readonly notificationId: string;
  readonly subNotificationId?: string;
  readonly timestamp: string;
}

/**
 * `<CHANNEL>_UNSUBSCRIBE` for each choice that turns a channel off which was not off before
 * (decisions 7): setting `off` twice is one unsubscribe.
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
