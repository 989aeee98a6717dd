import { InvalidRequestError, PayloadTooLargeError } from '@notify/platform';
import { z } from 'zod';
import { type Channel, channelSchema } from '../channels/channel';
import { userFieldsSchema, type UserFields } from '../users/user';
import { parseSchedule } from './schedule';
import {
  type attachmentSchema,
  base64Bytes,
  type DirectEmailBody,
  emailOptionsSchema,
  inlineEmailSchema,
  MAX_INLINE_ATTACHMENT_BYTES,
  type SendBody,
  sendBodySchema,
  sendOptionsSchema,
} from './send-body';

/** A send as the pipeline carries it: aliases resolved, recipient identified, schedule parsed. */
export const normalizedSendSchema = z.object({
  notificationId: z.string().min(1),
  subNotificationId: z.string().optional(),
  templateId: z.string().optional(),
  userId: z.string().min(1),
  recipient: userFieldsSchema,
  forceChannels: z.array(channelSchema).optional(),
  parameters: z.record(z.string(), z.unknown()),
  /** Epoch ms, set only when the schedule lies in the future. */
  scheduledFor: z.number().int().optional(),
  options: sendOptionsSchema.optional(),
  email: inlineEmailSchema.optional(),
  inapp: sendBodySchema.shape.inapp,
  sms: sendBodySchema.shape.sms,
  call: sendBodySchema.shape.call,
  web_push: sendBodySchema.shape.web_push,
  mobile_push: sendBodySchema.shape.mobile_push,
  slack: sendBodySchema.shape.slack,
});
export type NormalizedSend = z.infer<typeof normalizedSendSchema>;

export class MissingNotificationTypeError extends InvalidRequestError {
  constructor() {
    super({
      code: 'MISSING_NOTIFICATION_TYPE',
      message: 'type is required.',
      fix: 'Set type to the notification type id, e.g. "welcome".',
    });
  }
}

export class MissingRecipientError extends InvalidRequestError {
  constructor() {
    super({
      code: 'MISSING_RECIPIENT',
      message: 'to must identify the user.',
      fix: 'Give to.id (or at least to.email or to.number).',
    });
  }
}

export class InlineAttachmentTooLargeError extends PayloadTooLargeError {
  constructor(filename: string, bytes: number) {
    super({
      code: 'ATTACHMENT_TOO_LARGE',
      message: `Inline attachment "${filename}" is ${bytes} bytes; inline attachments are limited to ${MAX_INLINE_ATTACHMENT_BYTES} bytes.`,
      fix: 'Host the file and attach it by url (up to 20 MB).',
    });
  }
}

function checkInlineAttachments(attachments: readonly z.infer<typeof attachmentSchema>[] | undefined): void {
  for (const attachment of attachments ?? []) {
    if (attachment.content === undefined) continue;
    const bytes = base64Bytes(attachment.content);
    if (bytes > MAX_INLINE_ATTACHMENT_BYTES)
      throw new InlineAttachmentTooLargeError(attachment.filename, bytes);
  }
}

const contactFields = (recipient: SendBody['to']): UserFields => {
  if (recipient === undefined) return {};
  const {
    id: _id,
    lastSeenTime: _l,
    updatedAt: _u,
    createdAt: _c,
    emailSuppressionStatus: _e,
    ...fields
  } = recipient;
  return fields;
};

export class ScheduleTooFarError extends InvalidRequestError {
  constructor(maxAheadMs: number) {
    super({
      code: 'SCHEDULE_TOO_FAR_AHEAD',
      message: `schedule is more than ${Math.round(maxAheadMs / 86_400_000)} days ahead.`,
      fix: 'Schedule closer to now (the operator sets the limit with MAX_SCHEDULE_AHEAD_DAYS).',
    });
  }
}

export interface SendLimits {
  /** How far ahead a send may be scheduled. */
  readonly scheduleAheadMs: number;
}

/** Validated body → the pipeline's send, or a domain error (400/413) naming what is wrong. */
export function normalizeSend(body: SendBody, receivedAt: number, limits: SendLimits): NormalizedSend {
  const notificationId = body.type ?? body.notificationId;
  if (notificationId === undefined) throw new MissingNotificationTypeError();
  const to = body.to ?? body.user;
  const userId = to?.id ?? to?.email ?? to?.number;
  if (to === undefined || userId === undefined) throw new MissingRecipientError();
  checkInlineAttachments(body.options?.email?.attachments);
  const scheduledAt = body.schedule === undefined ? undefined : parseSchedule(body.schedule, to.timezone);
  if (scheduledAt !== undefined && scheduledAt - receivedAt > limits.scheduleAheadMs)
    throw new ScheduleTooFarError(limits.scheduleAheadMs);
  const forceChannels =
    body.forceChannels === undefined ? undefined : [...new Set<Channel>(body.forceChannels)];
  return {
    notificationId,
    subNotificationId: body.subNotificationId,
    templateId: body.templateId,
    userId,
    recipient: contactFields(to),
    forceChannels,
    parameters: { ...body.replace, ...body.mergeTags, ...body.parameters },
    scheduledFor: scheduledAt !== undefined && scheduledAt > receivedAt ? scheduledAt : undefined,
    options: body.options,
    email: body.email,
    inapp: body.inapp,
    sms: body.sms,
    call: body.call,
    web_push: body.web_push,
    mobile_push: body.mobile_push,
    slack: body.slack,
  };
}

/** `POST /email` is a send forced to the email channel with inline content. */
export function normalizeDirectEmail(
  body: DirectEmailBody,
  receivedAt: number,
  limits: SendLimits,
): NormalizedSend {
  return normalizeSend(
    {
      type: body.type,
      to: { id: body.to, email: body.to },
      forceChannels: ['EMAIL'],
      schedule: body.schedule,
      email: { subject: body.subject, html: body.html, previewText: body.previewText },
      options: {
        email: emailOptionsSchema.parse({
          fromAddress: body.fromAddress,
          fromName: body.fromName,
          replyToAddresses: body.replyToAddresses,
          ccAddresses: body.ccAddresses,
          bccAddresses: body.bccAddresses,
          attachments: body.attachments,
        }),
      },
    },
    receivedAt,
    limits,
  );
}

const MAX_REQUEST_FIELD = 8_192;

type LoggedBody = {
  to?: { slackToken?: unknown };
  user?: { slackToken?: unknown };
  options?: { email?: { attachments?: unknown } };
  attachments?: unknown;
};

const hasInlineContent = (body: LoggedBody) =>
  JSON.stringify(body.options?.email?.attachments ?? []).includes('"content"') ||
  JSON.stringify(body.attachments ?? []).includes('"content"');

const hasCredentials = (body: LoggedBody) =>
  body.to?.slackToken !== undefined || body.user?.slackToken !== undefined;

/**
 * The log's `request` field: the body as sent, bounded in size, minus inline attachment bytes and
 * minus credentials (a recipient's Slack token is kept with the user, never in the delivery log).
 */
export function requestSummary(body: unknown): string {
  const logged = body as LoggedBody;
  // A replacer takes JSON.stringify off its fast path; only bodies with files or tokens need one.
  const text =
    hasInlineContent(logged) || hasCredentials(logged)
      ? JSON.stringify(body, (key, value: unknown) => {
          if (key === 'slackToken') return '[redacted]';
          return key === 'content' && typeof value === 'string' ? `[${base64Bytes(value)} bytes]` : value;
        })
      : JSON.stringify(body);
  return text.length > MAX_REQUEST_FIELD ? `${text.slice(0, MAX_REQUEST_FIELD)}…` : text;
}

/** What the gateway publishes once it has accepted a send: the router's input. */
export const sendRequestedSchema = z.object({
  trackingId: z.string().min(1),
  accountId: z.string().min(1),
  envId: z.string().min(1),
  receivedAt: z.number().int(),
  test: z.boolean(),
  source: z.enum(['send', 'email']),
  client: z.object({ ip: z.string().optional(), agent: z.string().optional() }),
  request: z.string(),
  send: normalizedSendSchema,
});
export type SendRequested = z.infer<typeof sendRequestedSchema>;
