import { z } from 'zod';
import type { Channel } from '../channels/channel';
import { slackOptionsShape } from '../channels/slack';
import { mediaUrlsSchema } from '../sends/send-body';
import { Limits } from '../validation/limits';

const text = (max: number) => z.string().max(max);

const inappVariant = z.object({
  title: text(Limits.shortText).optional(),
  redirectURL: text(Limits.url).optional(),
  imageURL: text(Limits.url).optional(),
});

/**
 * Template content: one flat bag for every channel, as the pingram client models it. Which fields
 * matter depends on the template's channel (EMAIL: subject, html, senderName, senderEmail,
 * previewText; SMS/CALL: text, and mediaUrls for MMS; PUSH: title, message; WEB_PUSH: + icon, url;
 * INAPP_WEB: title, redirectURL, imageURL; SLACK: text, blocks and the Slack options). Every field
 * is bounded like the send body's.
 */
export const templateContentSchema = z.object({
  html: text(Limits.html).optional(),
  previewText: text(Limits.shortText).optional(),
  internal: text(Limits.html).optional(),
  subject: text(Limits.shortText).optional(),
  senderName: text(Limits.name).optional(),
  senderEmail: text(320).optional(),
  title: text(Limits.shortText).optional(),
  redirectURL: text(Limits.url).optional(),
  imageURL: text(Limits.url).optional(),
  instant: inappVariant.optional(),
  batch: inappVariant.optional(),
  text: text(Limits.slackText).optional(),
  message: text(Limits.text).optional(),
  icon: text(Limits.url).optional(),
  url: text(Limits.url).optional(),
  mediaUrls: mediaUrlsSchema.optional(),
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
