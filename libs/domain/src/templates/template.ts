import { z } from 'zod';
import type { Channel } from '../channels/channel';
import { slackOptionsShape } from '../channels/slack';

const inappVariant = z.object({
  title: z.string().optional(),
  redirectURL: z.string().optional(),
  imageURL: z.string().optional(),
});

/**
 * Template content: one flat bag for every channel, as the pingram client models it. Which fields
 * matter depends on the template's channel (EMAIL: subject, html, senderName, senderEmail,
 * previewText; SMS/CALL: text; PUSH: title, message; WEB_PUSH: + icon, url; INAPP_WEB: title,
 * redirectURL, imageURL; SLACK: text, blocks and the Slack options).
 */
export const templateContentSchema = z.object({
  html: z.string().optional(),
  previewText: z.string().optional(),
  internal: z.string().optional(),
  subject: z.string().optional(),
  senderName: z.string().optional(),
  senderEmail: z.string().optional(),
  title: z.string().optional(),
  redirectURL: z.string().optional(),
  imageURL: z.string().optional(),
  instant: inappVariant.optional(),
  batch: inappVariant.optional(),
  text: z.string().optional(),
  message: z.string().optional(),
  icon: z.string().optional(),
  url: z.string().optional(),
  mediaUrls: z.array(z.string()).optional(),
  ...slackOptionsShape,
});
export type TemplateContent = z.infer<typeof templateContentSchema>;

export const templateIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/\\?#%]+$/, { message: 'must not contain / \\ ? # or %' });

export const createTemplateSchema = templateContentSchema.extend({ templateId: templateIdSchema });

export interface Template extends TemplateContent {
  readonly notificationId: string;
  readonly channel: Channel;
  readonly templateId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}
