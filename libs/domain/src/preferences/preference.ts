import { InvalidRequestError } from '@notify/util';
import { z } from 'zod';
import { channelSchema } from '../channels/channel';
import { channelStrategy } from '../channels/registry';
import { type DeliveryMode, deliveryModeSchema } from '../notification-types/notification-type';
import { Limits } from '../validation/limits';

/** What a channel that takes no digest accepts: it is shown at once or not at all. */
export const UNDIGESTED_DELIVERY_MODES: readonly DeliveryMode[] = ['off', 'instant'];

/** A user's choice for one notification type (and optional sub-notification) on one channel. */
export const userPreferenceSchema = z
  .object({
    notificationId: z.string().min(1).max(Limits.id),
    subNotificationId: z.string().min(1).max(Limits.id).optional(),
    channel: channelSchema,
    delivery: deliveryModeSchema,
  })
  .superRefine((p, context) => {
    if (channelStrategy(p.channel).digestible || UNDIGESTED_DELIVERY_MODES.includes(p.delivery)) return;
    context.addIssue({
      code: 'custom',
      path: ['delivery'],
      message: `${p.channel} takes only ${UNDIGESTED_DELIVERY_MODES.join(' or ')}`,
    });
  });
export type UserPreference = z.infer<typeof userPreferenceSchema>;

export class TooManyPreferencesError extends InvalidRequestError {
  constructor() {
    super({
      code: 'TOO_MANY_PREFERENCES',
      message: `A user may keep at most ${Limits.preferencesPerUser} preference entries.`,
      fix: 'Remove entries for notifications that no longer exist, or set preferences per notification rather than per sub-notification.',
    });
  }
}

const targetKey = (p: UserPreference) =>
  `${p.notificationId}\u0000${p.subNotificationId ?? ''}\u0000${p.channel}`;

/**
 * Applies new choices over stored ones: one entry per (notification, sub-notification, channel),
 * at most Limits.preferencesPerUser in all (TooManyPreferencesError beyond).
 */
export function mergePreferences(
  stored: readonly UserPreference[],
  updates: readonly UserPreference[],
): UserPreference[] {
  const byTarget = new Map(stored.map((p) => [targetKey(p), p]));
  for (const update of updates) {
    byTarget.delete(targetKey(update));
    byTarget.set(targetKey(update), update);
  }
  if (byTarget.size > Limits.preferencesPerUser) throw new TooManyPreferencesError();
  return [...byTarget.values()];
}

/** A preferences write (the browser client's and the server SDKs' alike): a bounded list of choices. */
export const preferenceUpdatesSchema = z.array(userPreferenceSchema).max(500);

/** Which stored choices a deletion removes: a type's, or only one sub-notification's of it. */
export interface PreferenceTarget {
  readonly notificationId: string;
  readonly subNotificationId?: string;
}

/**
 * The stored choices minus the target's: without a sub-notification, every choice of the type
 * (its sub-notifications' included); with one, only that sub-notification's.
 */
export function withoutPreferences(
  stored: readonly UserPreference[],
  target: PreferenceTarget,
): UserPreference[] {
  return stored.filter(
    (p) =>
      p.notificationId !== target.notificationId ||
      (target.subNotificationId !== undefined && p.subNotificationId !== target.subNotificationId),
  );
}
