import { z } from 'zod';
import type { Channel } from '../channels/channel';
import { slackOptionsShape } from '../slack/slack-options';
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

type InAppVariant = z.infer<typeof inappVariant>;
const INAPP_VARIANT_FIELDS = ['title', 'redirectURL', 'imageURL'] as const;
type TextField = Exclude<keyof TemplateContent, 'instant' | 'batch' | 'mediaUrls' | 'blocks'>;

/**
 * The fields a template of each channel always answers with (the pingram client types one shape
 * per channel and marks these required); an unset one answers as empty. In-app's `instant` and
 * `batch` variants answer with their own fields, empty when unset.
 */
export const TEMPLATE_ANSWER_FIELDS = {
  EMAIL: { text: ['html', 'internal', 'subject', 'senderName', 'senderEmail'], variants: false },
  INAPP_WEB: { text: [...INAPP_VARIANT_FIELDS], variants: true },
  SMS: { text: ['text'], variants: false },
  CALL: { text: ['text'], variants: false },
  PUSH: { text: ['title', 'message'], variants: false },
  WEB_PUSH: { text: ['title', 'message'], variants: false },
  SLACK: { text: ['text'], variants: false },
} as const satisfies Record<Channel, { text: readonly TextField[]; variants: boolean }>;

const emptyVariant = (variant: InAppVariant | undefined): Required<InAppVariant> => ({
  title: variant?.title ?? '',
  redirectURL: variant?.redirectURL ?? '',
  imageURL: variant?.imageURL ?? '',
});

/** A template as answered: every field its channel's shape requires is there, empty when unset. */
export function withAnswerFields<T extends Template>(template: T): T {
  const answer = { ...template } as Record<string, unknown>;
  const required = TEMPLATE_ANSWER_FIELDS[template.channel];
  for (const field of required.text) answer[field] = template[field] ?? '';
  if (required.variants) {
    answer['instant'] = emptyVariant(template.instant);
    answer['batch'] = emptyVariant(template.batch);
  }
  return answer as T;
}

/**
 * Template content as stored: an empty text field is an unset one, and an in-app variant with no
 * non-empty field is no variant. So a template read back (with its empty answer fields) and
 * written again stores what it had, and an empty string in a PATCH clears a field.
 */
export function compactTemplateContent<T extends TemplateContent>(content: T): T {
  const compact: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(content)) {
    if (value === '' || value === undefined) continue;
    if ((key === 'instant' || key === 'batch') && typeof value === 'object' && value !== null) {
      const variant = Object.fromEntries(
        Object.entries(value as InAppVariant).filter(([, v]) => v !== undefined && v !== ''),
      );
      if (Object.keys(variant).length > 0) compact[key] = variant;
      continue;
    }
    compact[key] = value;
  }
  return compact as T;
}
