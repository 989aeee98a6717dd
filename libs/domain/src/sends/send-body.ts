import { z } from 'zod';
import { forceChannelSchema } from '../channels/channel';
import { slackOptionsShape } from '../channels/slack';
import { slackTokenSchema, userFieldsSchema } from '../users/user';

/** "about 4 MB raw per file" (spec 8): larger inline attachments are refused with 413. */
export const MAX_INLINE_ATTACHMENT_BYTES = 4 * 1024 * 1024;
/** Attachments fetched by URL, per file. */
export const MAX_URL_ATTACHMENT_BYTES = 20 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/;

/** Decoded size of a base64 string, without decoding it. */
export function base64Bytes(content: string): number {
  const clean = content.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}

export const attachmentSchema = z
  .object({
    filename: z.string().min(1).max(255),
    url: z.url({ protocol: /^https?$/, message: 'expected an http(s) URL' }).optional(),
    content: z.string().regex(BASE64, { message: 'expected base64 content' }).optional(),
    contentType: z.string().max(255).optional(),
  })
  .refine((a) => (a.url === undefined) !== (a.content === undefined), {
    message: 'give either url or content (base64), not both',
  });
export type Attachment = z.infer<typeof attachmentSchema>;

export const emailOptionsSchema = z.object({
  replyToAddresses: z.array(z.string().min(3)).optional(),
  ccAddresses: z.array(z.string().min(3)).optional(),
  bccAddresses: z.array(z.string().min(3)).optional(),
  fromAddress: z.string().min(3).optional(),
  fromName: z.string().optional(),
  attachments: z.array(attachmentSchema).max(50).optional(),
  condition: z.string().optional(),
});

export const sendOptionsSchema = z.object({
  email: emailOptionsSchema.optional(),
  apn: z
    .object({
      expiry: z.number().optional(),
      priority: z.number().optional(),
      collapseId: z.string().optional(),
      threadId: z.string().optional(),
      badge: z.number().optional(),
      sound: z.string().optional(),
      contentAvailable: z.boolean().optional(),
    })
    .optional(),
  fcm: z
    .object({
      android: z
        .object({
          collapseKey: z.string().optional(),
          priority: z.enum(['high', 'normal']).optional(),
          ttl: z.number().optional(),
          restrictedPackageName: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
  push: z
    .object({
      customData: z
        .record(z.string(), z.string())
        .refine((data) => Object.keys(data).length <= 3, { message: 'at most 3 custom data pairs' })
        .optional(),
    })
    .optional(),
});

/** Inline email content. Subject and html are checked when sending (a missing one is logged as failed). */
export const inlineEmailSchema = z.object({
  subject: z.string().optional(),
  html: z.string().optional(),
  previewText: z.string().optional(),
  senderName: z.string().optional(),
  senderEmail: z.string().optional(),
});

export const recipientSchema = userFieldsSchema.extend({
  id: z.string().min(1).max(500).optional(),
  // Read-only fields a client may echo back from a stored user; accepted and ignored.
  lastSeenTime: z.string().optional(),
  updatedAt: z.string().optional(),
  createdAt: z.string().optional(),
  emailSuppressionStatus: z.unknown().optional(),
  slackToken: slackTokenSchema.optional(),
});
export type Recipient = z.infer<typeof recipientSchema>;

/** The send body of spec 2.2, as the pingram client sends it (deprecated aliases included). */
export const sendBodySchema = z.object({
  type: z.string().min(1).max(200).optional(),
  notificationId: z.string().min(1).max(200).optional(),
  to: recipientSchema.optional(),
  user: recipientSchema.optional(),
  forceChannels: z.array(forceChannelSchema).optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  mergeTags: z.record(z.string(), z.unknown()).optional(),
  replace: z.record(z.string(), z.string()).optional(),
  secondaryId: z.string().optional(),
  templateId: z.string().min(1).optional(),
  subNotificationId: z.string().min(1).optional(),
  schedule: z.string().optional(),
  options: sendOptionsSchema.optional(),
  email: inlineEmailSchema.optional(),
  inapp: z.object({ title: z.string(), url: z.string().optional(), image: z.string().optional() }).optional(),
  sms: z
    .object({
      message: z.string().optional(),
      mediaUrls: z.array(z.url({ protocol: /^https$/, message: 'expected a public https URL' })).optional(),
      autoReply: z.object({ message: z.string() }).optional(),
      from: z.string().optional(),
    })
    .optional(),
  call: z.object({ message: z.string() }).optional(),
  web_push: z
    .object({
      title: z.string(),
      message: z.string(),
      icon: z.string().optional(),
      url: z.string().optional(),
    })
    .optional(),
  mobile_push: z.object({ title: z.string(), message: z.string() }).optional(),
  slack: z
    .object({
      text: z.string(),
      icon: z.string().optional(),
      ...slackOptionsShape,
    })
    .optional(),
});
export type SendBody = z.infer<typeof sendBodySchema>;

/** The direct email body (`POST /email`, decisions 1). */
export const directEmailBodySchema = z.object({
  type: z.string().min(1).max(200),
  to: z.string().min(3).max(320),
  subject: z.string(),
  html: z.string(),
  fromName: z.string().optional(),
  fromAddress: z.string().optional(),
  previewText: z.string().optional(),
  replyToAddresses: z.array(z.string()).optional(),
  ccAddresses: z.array(z.string()).optional(),
  bccAddresses: z.array(z.string()).optional(),
  attachments: z.array(attachmentSchema).max(50).optional(),
  schedule: z.string().optional(),
});
export type DirectEmailBody = z.infer<typeof directEmailBodySchema>;
