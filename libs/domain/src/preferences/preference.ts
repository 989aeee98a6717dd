import { z } from 'zod';
import { channelSchema } from '../channels/channel';
import { deliveryModeSchema } from '../notification-types/notification-type';

/** A user's choice for one notification type (and optional sub-notification) on one channel. */
export const userPreferenceSchema = z.object({
  notificationId: z.string().min(1),
  subNotificationId: z.string().min(1).optional(),
  channel: channelSchema,
  delivery: deliveryModeSchema,
});
export type UserPreference = z.infer<typeof userPreferenceSchema>;

const sameTarget = (a: UserPreference, b: UserPreference) =>
  a.notificationId === b.notificationId &&
  a.channel === b.channel &&
  a.subNotificationId === b.subNotificationId;

/** Applies new choices over stored ones: one entry per (notification, sub-notification, channel). */
export function mergePreferences(
  stored: readonly UserPreference[],
  updates: readonly UserPreference[],
): UserPreference[] {
  const kept = stored.filter((existing) => !updates.some((update) => sameTarget(existing, update)));
  return [...kept, ...updates];
}
