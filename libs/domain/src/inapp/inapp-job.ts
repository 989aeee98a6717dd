import { z } from 'zod';
import { deliveryJobSchema } from '../sends/delivery-job';

/** What the router hands the in-app sender: the rendered item, and how long to keep it. */
export const inappJobSchema = deliveryJobSchema.extend({
  subNotificationId: z.string().optional(),
  title: z.string(),
  redirectURL: z.string().optional(),
  imageURL: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  /** The notification type's `retention` in days (default DEFAULT_INAPP_RETENTION_DAYS). */
  retentionDays: z.number().int().positive(),
});
export type InAppJob = z.infer<typeof inappJobSchema>;

export const DEFAULT_INAPP_RETENTION_DAYS = 30;
