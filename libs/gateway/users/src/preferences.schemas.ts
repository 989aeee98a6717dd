import { channelSchema, typeOptionsSchema, userPreferenceSchema } from '@notify/domain';
import { z } from 'zod';

const preferencesOutput = z.array(userPreferenceSchema);

/** A user's preferences and the notification types they apply to (the browser client's and the server's GET). */
export const preferencesSchema = z.object({
  preferences: preferencesOutput,
  notifications: z.array(
    z.object({
      notificationId: z.string(),
      title: z.string(),
      channels: z.array(channelSchema),
      options: typeOptionsSchema,
    }),
  ),
  subNotifications: z.array(
    z.object({ notificationId: z.string(), subNotificationId: z.string(), title: z.string() }),
  ),
});

/** What a POST of preferences answers: the user's stored choices after it. */
export const setPreferencesOutput = z.object({ preferences: preferencesOutput });
