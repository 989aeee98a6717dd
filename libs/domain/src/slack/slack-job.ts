import { z } from 'zod';
import { slackOptionsShape } from './slack-options';
import { deliveryJobSchema } from '../sends/delivery-job';

/**
 * What the router hands the Slack sender: destination and rendered message. The user's token is
 * not on the bus; the sender reads it from the user record (and writes a refreshed one back).
 */
export const slackJobSchema = deliveryJobSchema.extend({
  /** As the user record has it: `#name`, `name`, a channel id, a user id, or `@username`. */
  channel: z.string().min(1),
  text: z.string().optional(),
  /** An emoji between colons, or an image URL. */
  icon: z.string().optional(),
  ...slackOptionsShape,
});
export type SlackJob = z.infer<typeof slackJobSchema>;
