import { z } from 'zod';
import { deliveryJobSchema } from '../sends/delivery-job';
import { sendOptionsSchema } from '../sends/send-body';

const apnOptions = sendOptionsSchema.shape.apn.unwrap();
const androidOptions = sendOptionsSchema.shape.fcm.unwrap().shape.android.unwrap();

/** One device the push goes to, as the user record keeps it (device details stay with the user). */
export const pushTargetSchema = z.object({
  type: z.enum(['FCM', 'APN']),
  token: z.string().min(1),
  /** APNs: `production` sends to the production gateway; anything else to the sandbox. */
  environment: z.string().optional(),
});
export type PushTarget = z.infer<typeof pushTargetSchema>;

/** What the router hands the mobile push sender: every token of the user, and the rendered push. */
export const mobilePushJobSchema = deliveryJobSchema.extend({
  title: z.string(),
  message: z.string(),
  targets: z.array(pushTargetSchema).min(1),
  apn: apnOptions.optional(),
  android: androidOptions.optional(),
  customData: z.record(z.string(), z.string()).optional(),
});
export type MobilePushJob = z.infer<typeof mobilePushJobSchema>;
export type ApnOptions = z.infer<typeof apnOptions>;
export type AndroidOptions = z.infer<typeof androidOptions>;
