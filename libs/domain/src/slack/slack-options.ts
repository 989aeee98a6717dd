import { z } from 'zod';

/** Slack message metadata (entities, event_type, event_payload): a send's, and a Slack template's alike. */
export const slackMetadataSchema = z.object({
  entities: z
    .array(
      z.object({
        entity_type: z.string(),
        entity_payload: z.record(z.string(), z.unknown()),
        external_ref: z.object({ id: z.string(), type: z.string().optional() }),
        url: z.string(),
        app_unfurl_url: z.string().optional(),
      }),
    )
    .optional(),
  event_type: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_]*$/)
    .optional(),
  event_payload: z.record(z.string(), z.unknown()).optional(),
});

/** The Slack message options a send and a Slack template share (the send's `slack` content beside `text`). */
export const slackOptionsShape = {
  blocks: z.array(z.record(z.string(), z.unknown())).max(50).optional(),
  username: z.string().max(80).optional(),
  thread_ts: z.string().max(64).optional(),
  reply_broadcast: z.boolean().optional(),
  parse: z.enum(['full', 'none']).optional(),
  link_names: z.boolean().optional(),
  mrkdwn: z.boolean().optional(),
  unfurl_links: z.boolean().optional(),
  unfurl_media: z.boolean().optional(),
  metadata: slackMetadataSchema.optional(),
};
