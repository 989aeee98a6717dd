import { InvalidRequestError, PayloadTooLargeError } from '@notify/util';
import { z } from 'zod';
import { type Channel, channelSchema } from '../channels/channel';
import { userFieldsSchema, type UserFields } from '../users/user';
import { normalizePhoneNumber } from '../phone/phone-number';
import { parseSchedule } from './schedule';
import { deliveryModeSchema } from '../notification-types/notification-type';
import {
  type attachmentSchema,
  base64Bytes,
  type DirectEmailBody,
  type DirectSmsBody,
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
  /** A `to.number` that is not a phone number: never stored, and SMS and CALL fail with INVALID_PHONE_NUMBER. */
  invalidNumber: z.string().optional(),
  /** Set only by the service for its own mails that carry a credential (see isSensitiveSend). */
  sensitive: z.literal(true).optional(),
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

/** The recipient with its number in E.164; a number that is not one is set aside, never stored. */
function withNormalizedNumber(fields: UserFields): { recipient: UserFields; invalidNumber?: string } {
  if (fields.number === undefined) return { recipient: fields };
  const number = normalizePhoneNumber(fields.number);
  if (number !== undefined) return { recipient: { ...fields, number } };
  const { number: invalid, ...rest } = fields;
  return { recipient: rest, invalidNumber: invalid };
}

/**
 * What the send's answer warns about (its `messages`): problems the request itself shows, so the
 * caller hears of them without reading the log. The log records the same failures per channel.
 */
export function sendWarnings(send: NormalizedSend): string[] {
  const warnings: string[] = [];
  if (send.invalidNumber !== undefined)
    warnings.push(
      `to.number "${send.invalidNumber}" is not a valid phone number (E.164 such as +14155552671, or a US/Canada number): SMS and CALL fail with INVALID_PHONE_NUMBER.`,
    );
  if (send.sms !== undefined && !send.sms.message && (send.sms.mediaUrls?.length ?? 0) === 0)
    warnings.push('sms has neither message nor mediaUrls: SMS fails with MISSING_SMS_MESSAGE.');
  if (send.call !== undefined && send.call.message.trim().length === 0)
    warnings.push('call.message is empty: CALL fails with MISSING_SMS_MESSAGE.');
  if (send.slack !== undefined && send.slack.text.length === 0 && (send.slack.blocks?.length ?? 0) === 0)
    warnings.push('slack has neither text nor blocks: SLACK fails with NO_TEXT.');
  return warnings;
}

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
  const { recipient, invalidNumber } = withNormalizedNumber(contactFields(to));
  return {
    notificationId,
    // secondaryId is the older SDKs' name for subNotificationId.
    subNotificationId: body.subNotificationId ?? (body.secondaryId || undefined),
    templateId: body.templateId,
    userId,
    recipient,
    ...(invalidNumber !== undefined ? { invalidNumber } : {}),
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

/**
 * A number that is not one. On `POST /sms` the body says which provider code it stands for
 * (Twilio's 21211, "invalid To number"), as the API's SMS failure body has it.
 */
export class InvalidPhoneNumberError extends InvalidRequestError {
  constructor(field: string, given: string, sms = false) {
    super({
      code: 'INVALID_PHONE_NUMBER',
      message: `${field} "${given}" is not a valid phone number.`,
      fix: 'Give the number in E.164 (+14155552671), or a 10-digit US/Canada number.',
      ...(sms ? { provider: 'twilio', providerCode: '21211' } : {}),
    });
  }
}

/** `POST /sms` is a send forced to the SMS channel with inline content; the number must be one. */
export function normalizeDirectSms(
  body: DirectSmsBody,
  receivedAt: number,
  limits: SendLimits,
): NormalizedSend {
  const number = normalizePhoneNumber(body.to);
  if (number === undefined) throw new InvalidPhoneNumberError('to', body.to, true);
  return normalizeSend(
    {
      type: body.type,
      to: { id: number, number },
      forceChannels: ['SMS'],
      schedule: body.schedule,
      sms: {
        message: body.message,
        mediaUrls: body.mediaUrls,
        from: body.from,
        autoReply: body.autoReply,
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
  source: z.enum(['send', 'email', 'sms']),
  client: z.object({ ip: z.string().optional(), agent: z.string().optional() }),
  request: z.string(),
  send: normalizedSendSchema,
  /** A scheduled send the scheduler released at its due time: routed now, not held again. */
  released: z.boolean().optional(),
  /**
   * The gateway put this scheduled send in the delayed queue itself before accepting it, so that
   * it can be changed or deleted at once: the router logs it but does not hold it again (which
   * would undo a change or deletion that came first).
   */
  queued: z.boolean().optional(),
  /**
   * A digest the scheduler released: one message on `channel` for every send batched in its
   * window (this request carries the first one's tracking id; `send.parameters.items` holds each
   * send's parameters).
   */
  digest: z
    .object({
      channel: channelSchema,
      mode: deliveryModeSchema,
      trackingIds: z.array(z.string()).min(1),
    })
    .optional(),
});
export type SendRequested = z.infer<typeof sendRequestedSchema>;
