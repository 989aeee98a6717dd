import { namedSchema } from '@notify/util';
import { z } from 'zod';
import { forceChannelSchema } from '../channels/channel';
import { slackOptionsShape } from '../slack/slack-options';
import { slackTokenSchema, userFieldsSchema, userIdSchema } from '../users/user';
import { Limits } from '../validation/limits';
import { hasControlCharacters, isBase64, isEmailAddress } from '../validation/text-checks';

/** The API's limit of "about 4 MB raw per file": larger inline attachments are refused with 413. */
export const MAX_INLINE_ATTACHMENT_BYTES = 4 * 1024 * 1024;
/** Attachments fetched by URL, per file. */
export const MAX_URL_ATTACHMENT_BYTES = 20 * 1024 * 1024;

/** Decoded size of a base64 string, without decoding it. */
export function base64Bytes(content: string): number {
  const clean = content.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}

/** One plain email address (no display name, no list): each is checked, none can smuggle in another. */
export const emailAddressSchema = z
  .string()
  .max(320)
  .refine(isEmailAddress, { message: 'expected one email address such as ann@example.com' });

/** A single-line text that ends up in a header (names, subjects): no line breaks. */
const headerText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((text) => !hasControlCharacters(text), { message: 'must not contain line breaks' });

const httpUrl = z.url({ protocol: /^https?$/, message: 'expected an http(s) URL' }).max(Limits.url);

export const attachmentSchema = z
  .object({
    filename: headerText(255).pipe(z.string().min(1)),
    url: httpUrl.optional(),
    // Checked in one linear pass; its size is checked after (413) by normalizeSend.
    content: z.string().refine(isBase64, { message: 'expected base64 content' }).optional(),
    contentType: headerText(255).optional(),
  })
  .refine((a) => (a.url === undefined) !== (a.content === undefined), {
    message: 'give either url or content (base64), not both',
  });
export type Attachment = z.infer<typeof attachmentSchema>;

const addressList = z.array(emailAddressSchema).max(Limits.recipientsPerList);

/** MMS media: carriers fetch them by GET, so they must be public https URLs. */
export const mediaUrlsSchema = z
  .array(z.url({ protocol: /^https$/, message: 'expected a public https URL' }).max(Limits.url))
  .max(Limits.mediaUrls);

const autoReplySchema = z.object({ message: z.string().min(1).max(Limits.text) });

export const emailOptionsSchema = z.object({
  replyToAddresses: addressList.optional(),
  ccAddresses: addressList.optional(),
  bccAddresses: addressList.optional(),
  fromAddress: emailAddressSchema.optional(),
  fromName: headerText(Limits.name).optional(),
  attachments: z.array(attachmentSchema).max(Limits.attachments).optional(),
  condition: z.string().max(Limits.shortText).optional(),
});

export const sendOptionsSchema = z.object({
  email: emailOptionsSchema.optional(),
  apn: z
    .object({
      expiry: z.number().optional(),
      priority: z.number().optional(),
      collapseId: z.string().max(Limits.name).optional(),
      threadId: z.string().max(Limits.name).optional(),
      badge: z.number().optional(),
      sound: z.string().max(Limits.name).optional(),
      contentAvailable: z.boolean().optional(),
    })
    .optional(),
  fcm: z
    .object({
      android: z
        .object({
          collapseKey: z.string().max(Limits.name).optional(),
          priority: z.enum(['high', 'normal']).optional(),
          ttl: z.number().optional(),
          restrictedPackageName: z.string().max(Limits.name).optional(),
        })
        .optional(),
    })
    .optional(),
  push: z
    .object({
      customData: z
        .record(z.string().max(Limits.name), z.string().max(Limits.shortText))
        .refine((data) => Object.keys(data).length <= 3, { message: 'at most 3 custom data pairs' })
        .optional(),
    })
    .optional(),
});

/** Inline email content. Subject and html are checked when sending (a missing one is logged as failed). */
export const inlineEmailSchema = z.object({
  subject: z.string().max(Limits.shortText).optional(),
  html: z.string().max(Limits.html).optional(),
  previewText: z.string().max(Limits.shortText).optional(),
  senderName: z.string().max(Limits.name).optional(),
  senderEmail: z.string().max(320).optional(),
});

export const recipientSchema = userFieldsSchema.extend({
  id: userIdSchema.optional(),
  // Read-only fields a client may echo back from a stored user; accepted and ignored.
  lastSeenTime: z.string().optional(),
  updatedAt: z.string().optional(),
  createdAt: z.string().optional(),
  emailSuppressionStatus: z.unknown().optional(),
  slackToken: slackTokenSchema.optional(),
});
export type Recipient = z.infer<typeof recipientSchema>;

/** The send body of `POST /send`, as the pingram client sends it (deprecated aliases included). */
export const sendBodySchema = z.object({
  type: z.string().min(1).max(Limits.id).optional(),
  notificationId: z.string().min(1).max(Limits.id).optional(),
  to: recipientSchema.optional(),
  user: recipientSchema.optional(),
  forceChannels: z.array(forceChannelSchema).max(16).optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  mergeTags: z.record(z.string(), z.unknown()).optional(),
  replace: z.record(z.string(), z.string()).optional(),
  secondaryId: z.string().max(Limits.id).optional(),
  templateId: z.string().min(1).max(Limits.id).optional(),
  subNotificationId: z.string().min(1).max(Limits.id).optional(),
  schedule: z.string().max(64).optional(),
  options: sendOptionsSchema.optional(),
  email: inlineEmailSchema.optional(),
  inapp: z
    .object({
      title: z.string().max(Limits.shortText),
      url: z.string().max(Limits.url).optional(),
      image: z.string().max(Limits.url).optional(),
    })
    .optional(),
  sms: z
    .object({
      message: z.string().max(Limits.text).optional(),
      mediaUrls: mediaUrlsSchema.optional(),
      autoReply: autoReplySchema.optional(),
      from: z.string().max(32).optional(),
    })
    .optional(),
  call: z.object({ message: z.string().max(Limits.text) }).optional(),
  web_push: z
    .object({
      title: z.string().max(Limits.shortText),
      message: z.string().max(Limits.text),
      icon: z.string().max(Limits.url).optional(),
      url: z.string().max(Limits.url).optional(),
    })
    .optional(),
  mobile_push: z
    .object({ title: z.string().max(Limits.shortText), message: z.string().max(Limits.text) })
    .optional(),
  slack: z
    .object({
      text: z.string().max(Limits.slackText),
      icon: z.string().max(Limits.url).optional(),
      ...slackOptionsShape,
    })
    .optional(),
});
export type SendBody = z.infer<typeof sendBodySchema>;
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('SenderPostBody', sendBodySchema);

/** The direct email body (`POST /email`). */
export const directEmailBodySchema = z.object({
  type: z.string().min(1).max(Limits.id),
  to: emailAddressSchema,
  subject: z.string().max(Limits.shortText),
  html: z.string().max(Limits.html),
  fromName: headerText(Limits.name).optional(),
  fromAddress: emailAddressSchema.optional(),
  previewText: z.string().max(Limits.shortText).optional(),
  replyToAddresses: addressList.optional(),
  ccAddresses: addressList.optional(),
  bccAddresses: addressList.optional(),
  attachments: z.array(attachmentSchema).max(Limits.attachments).optional(),
  schedule: z.string().max(64).optional(),
});
export type DirectEmailBody = z.infer<typeof directEmailBodySchema>;
namedSchema('SendEmailRequest', directEmailBodySchema);

/** The direct SMS body (`POST /sms`, fields in the pingram client's order); `message` may be left out for an MMS. */
export const directSmsBodySchema = z
  .object({
    type: z.string().min(1).max(Limits.id),
    to: z.string().min(1).max(32),
    message: z.string().max(Limits.text).optional(),
    mediaUrls: mediaUrlsSchema.optional(),
    schedule: z.string().max(64).optional(),
    from: z.string().max(32).optional(),
    autoReply: autoReplySchema.optional(),
  })
  .refine((body) => (body.message?.length ?? 0) > 0 || (body.mediaUrls?.length ?? 0) > 0, {
    message: 'give a message, mediaUrls, or both',
    path: ['message'],
  });
export type DirectSmsBody = z.infer<typeof directSmsBodySchema>;
namedSchema('SendSmsRequest', directSmsBodySchema);
