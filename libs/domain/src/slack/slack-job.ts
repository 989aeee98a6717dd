import { z } from 'zod';
import { slackMetadataSchema } from '../channels/slack';
import { deliveryJobSchema } from '../sends/delivery-job';

/**
 * What the router hands the Slack sender: destination and rendered message. The user's token is
 * not on the bus; the sender reads it from the user record (and writes a refreshed one back).
 */
export const slackJobSchema = deliveryJobSchema.extend({
  /** As the user record has it: `#name`, `name`, a channel id, a user id, or `@username`. */
  channel: z.string().min(1),
  text: z.string().optional(),
  blocks: z.array(z.record(z.string(), z.unknown())).optional(),
  username: z.string().optional(),
  /** An emoji between colons, or an image URL. */
  icon: z.string().optional(),
  thread_ts: z.string().optional(),
  reply_broadcast: z.boolean().optional(),
  parse: z.enum(['full', 'none']).optional(),
  link_names: z.boolean().optional(),
  mrkdwn: z.boolean().optional(),
  unfurl_links: z.boolean().optional(),
  unfurl_media: z.boolean().optional(),
  metadata: slackMetadataSchema.optional(),
});
export type SlackJob = z.infer<typeof slackJobSchema>;
