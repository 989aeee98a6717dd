import { z } from 'zod';
import { deliveryJobSchema } from '../sends/delivery-job';
import { webPushTokenSchema } from '../users/user';

export const webPushSubscriptionSchema = webPushTokenSchema.shape.sub;
export type WebPushSubscription = z.infer<typeof webPushSubscriptionSchema>;

/** What the router hands the web push sender: every browser subscription of the user, and the push. */
export const webPushJobSchema = deliveryJobSchema.extend({
  title: z.string(),
  message: z.string(),
  icon: z.string().optional(),
  url: z.string().optional(),
  subscriptions: z.array(webPushSubscriptionSchema).min(1),
});
export type WebPushJob = z.infer<typeof webPushJobSchema>;

/** The encrypted payload a browser's service worker receives (the published client library reads these names). */
export const webPushPayload = (job: Pick<WebPushJob, 'title' | 'message' | 'icon' | 'url'>) =>
  JSON.stringify({
    title: job.title,
    message: job.message,
    ...(job.icon !== undefined ? { icon: job.icon } : {}),
    ...(job.url !== undefined ? { url: job.url } : {}),
  });
