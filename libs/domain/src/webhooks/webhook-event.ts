import { createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { DeliveryEvent } from '../delivery-log/delivery-event';
import type { LogField } from '../delivery-log/log-fields';

/** The webhook event types: what an endpoint may subscribe to; it receives only the types it lists. */
export const WEBHOOK_EVENT_TYPES = [
  'EMAIL_OPEN',
  'EMAIL_CLICK',
  'EMAIL_FAILED',
  'EMAIL_DELIVERED',
  'EMAIL_UNSUBSCRIBE',
  'EMAIL_INBOUND',
  'INAPP_WEB_FAILED',
  'INAPP_WEB_UNSUBSCRIBE',
  'SMS_DELIVERED',
  'SMS_FAILED',
  'SMS_UNSUBSCRIBE',
  'SMS_SUBSCRIBE',
  'SMS_INBOUND',
  'PUSH_FAILED',
  'PUSH_UNSUBSCRIBE',
  'CALL_FAILED',
  'CALL_UNSUBSCRIBE',
  'WEB_PUSH_FAILED',
  'WEB_PUSH_UNSUBSCRIBE',
  'SLACK_FAILED',
  'SLACK_UNSUBSCRIBE',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

/** The payload every delivery carries; channel-specific fields join it. */
export interface WebhookPayload {
  readonly eventType: WebhookEventType;
  readonly channel: string;
  readonly userId: string;
  readonly notificationId: string;
  readonly trackingId: string;
  readonly timestamp: string;
  readonly failureCode?: string;
  readonly clickedLink?: string;
  readonly clickedLinkTags?: readonly string[];
  /** Inbound SMS and email: an SMS's `to` is the service number, an email's its recipients. */
  readonly from?: string;
  readonly to?: string | readonly string[];
  readonly text?: string;
  readonly receivedAt?: string;
  readonly lastTrackingId?: string;
  readonly fromName?: string;
  readonly cc?: readonly string[];
  readonly replyTo?: readonly string[];
  readonly subject?: string;
  readonly bodyText?: string;
  readonly bodyHtml?: string;
  readonly attachments?: readonly unknown[];
  readonly messageId?: string;
  readonly inReplyTo?: string;
  readonly references?: readonly string[];
}

/** What a delivery event means for webhooks: the type, the payload's channel, and where its result is logged. */
interface Mapping {
  readonly type: WebhookEventType;
  readonly channel: string;
  /** The log field of the forwarding result (the log has one for some events only). */
  readonly resField?: LogField;
  /** The log field holding the event's failure code. */
  readonly codeField?: LogField;
  /** The log field that says whether the webhook got through (inbound, unsubscribe and subscribe events only). */
  readonly deliveredField?: LogField;
  /** Events that need no user: an inbound SMS may come from a number no send went to. */
  readonly anonymous?: boolean;
  /** Payload fields taken from the event's log fields (inbound SMS). */
  readonly inbound?: {
    readonly from: LogField;
    readonly to?: LogField;
    readonly text?: LogField;
    readonly at: LogField;
  };
}

const MAPPINGS: Readonly<Record<string, Mapping>> = {
  email_delivered: { type: 'EMAIL_DELIVERED', channel: 'EMAIL', resField: 'email_delivered_webhook_res' },
  email_failed: {
    type: 'EMAIL_FAILED',
    channel: 'EMAIL',
    resField: 'email_failed_webhook_res',
    codeField: 'email_failed_code',
  },
  email_opened: { type: 'EMAIL_OPEN', channel: 'EMAIL', resField: 'email_opened_webhook_res' },
  email_clicked: { type: 'EMAIL_CLICK', channel: 'EMAIL', resField: 'email_clicked_webhook_res' },
  sms_delivered: { type: 'SMS_DELIVERED', channel: 'SMS' },
  sms_failed: { type: 'SMS_FAILED', channel: 'SMS', codeField: 'sms_failed_code' },
  call_failed: { type: 'CALL_FAILED', channel: 'CALL', codeField: 'call_failed_code' },
  mobile_push_failed: { type: 'PUSH_FAILED', channel: 'PUSH', codeField: 'mobile_push_failed_code' },
  web_push_failed: { type: 'WEB_PUSH_FAILED', channel: 'WEB_PUSH', codeField: 'web_push_failed_code' },
  slack_failed: { type: 'SLACK_FAILED', channel: 'SLACK', codeField: 'slack_failed_code' },
  inapp_failed: { type: 'INAPP_WEB_FAILED', channel: 'INAPP_WEB', codeField: 'inapp_failed_code' },
  email_inbound: {
    type: 'EMAIL_INBOUND',
    channel: 'EMAIL',
    resField: 'email_inbound_webhook_res',
    deliveredField: 'email_inbound_webhook_delivered',
    anonymous: true,
  },
  sms_inbound: {
    type: 'SMS_INBOUND',
    channel: 'SMS',
    resField: 'sms_inbound_webhook_res',
    deliveredField: 'sms_inbound_webhook_delivered',
    anonymous: true,
    inbound: {
      from: 'sms_inbound_from',
      to: 'sms_inbound_to',
      text: 'sms_inbound_text',
      at: 'sms_inbound_at',
    },
  },
  sms_unsubscribe: {
    type: 'SMS_UNSUBSCRIBE',
    channel: 'SMS',
    resField: 'sms_unsubscribe_webhook_res',
    deliveredField: 'sms_unsubscribe_webhook_delivered',
    anonymous: true,
    inbound: { from: 'sms_unsubscribe_from', at: 'sms_unsubscribe_at' },
  },
  sms_subscribe: {
    type: 'SMS_SUBSCRIBE',
    channel: 'SMS',
    resField: 'sms_subscribe_webhook_res',
    deliveredField: 'sms_subscribe_webhook_delivered',
    anonymous: true,
    inbound: { from: 'sms_subscribe_from', at: 'sms_subscribe_at' },
  },
};

/**
 * The webhook a delivery event calls for, if any. Events without a user and type (from before
 * they carried them) have no payload to give and call for none.
 */
export function webhookFor(
  event: DeliveryEvent,
): { payload: WebhookPayload; resField?: LogField; deliveredField?: LogField } | undefined {
  const mapping = MAPPINGS[event.event];
  if (mapping === undefined) return undefined;
  if (!mapping.anonymous && (event.userId === undefined || event.notificationId === undefined))
    return undefined;
  const field = (name: LogField | undefined) => (name === undefined ? undefined : event.fields[name]);
  const code = field(mapping.codeField);
  const inbound =
    mapping.inbound === undefined
      ? {}
      : {
          from: String(field(mapping.inbound.from) ?? ''),
          ...(mapping.inbound.to !== undefined ? { to: String(field(mapping.inbound.to) ?? '') } : {}),
          ...(mapping.inbound.text !== undefined ? { text: String(field(mapping.inbound.text) ?? '') } : {}),
          receivedAt: String(field(mapping.inbound.at) ?? new Date(event.time).toISOString()),
          ...(typeof event.webhookExtras?.['lastTrackingId'] === 'string'
            ? { lastTrackingId: event.webhookExtras['lastTrackingId'] }
            : {}),
        };
  return {
    payload: {
      eventType: mapping.type,
      channel: mapping.channel,
      userId: event.userId ?? '',
      notificationId: event.notificationId ?? '',
      trackingId: event.trackingId,
      timestamp: new Date(event.time).toISOString(),
      ...(code !== undefined ? { failureCode: String(code) } : {}),
      ...(event.event === 'email_clicked' ? clickOf(event.fields) : {}),
      ...(event.event === 'email_inbound' ? inboundEmailOf(event) : {}),
      ...inbound,
    },
    ...(mapping.resField !== undefined ? { resField: mapping.resField } : {}),
    ...(mapping.deliveredField !== undefined ? { deliveredField: mapping.deliveredField } : {}),
  };
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** An inbound email's payload: strings from the log, lists from the event's extras. */
function inboundEmailOf(event: DeliveryEvent): Partial<WebhookPayload> {
  const text = (field: LogField) => String(event.fields[field] ?? '');
  const extras = event.webhookExtras ?? {};
  return {
    from: text('email_inbound_from'),
    fromName: text('email_inbound_from_name'),
    to: stringList(extras['to']),
    cc: stringList(extras['cc']),
    replyTo: stringList(extras['replyTo']),
    subject: text('email_inbound_subject'),
    bodyText: text('email_inbound_body_text'),
    bodyHtml: text('email_inbound_body_html'),
    attachments: Array.isArray(extras['attachments']) ? extras['attachments'] : [],
    messageId: text('email_inbound_message_id'),
    inReplyTo: text('email_inbound_in_reply_to'),
    references: stringList(extras['references']),
    receivedAt: String(event.fields['email_inbound_at'] ?? new Date(event.time).toISOString()),
  };
}

/** A click's link and tags (comma-separated in the log). */
function clickOf(fields: DeliveryEvent['fields']): { clickedLink?: string; clickedLinkTags?: string[] } {
  const link = fields['email_clicked_link'];
  const tags = fields['email_clicked_link_tags'];
  return {
    ...(link !== undefined ? { clickedLink: String(link) } : {}),
    ...(tags !== undefined && String(tags).length > 0 ? { clickedLinkTags: String(tags).split(',') } : {}),
  };
}

/**
 * Announced (coordination pub/sub, message `accountId/envId`) when an environment's endpoints
 * change, so every dispatcher drops its cached copy at once.
 */
export const WEBHOOK_ENDPOINTS_CHANGED_CHANNEL = 'webhooks/changed';

/** `whsec_` + base64 of 24 random bytes; returned on create only. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * Both signature header sets over the same body, so either kind of receiver verifies it: Standard
 * Webhooks (seconds, base64, key = the decoded part after `whsec_`) and the pingram helper's
 * (milliseconds, hex, key = the whole secret string).
 */
export function webhookSignatureHeaders(
  secret: string,
  id: string,
  body: string,
  nowMs: number,
): Record<string, string> {
  const seconds = String(Math.floor(nowMs / 1_000));
  const millis = String(nowMs);
  const standardKey = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const standard = createHmac('sha256', standardKey).update(`${id}.${seconds}.${body}`).digest('base64');
  const pingram = createHmac('sha256', secret).update(`${id}.${millis}.${body}`).digest('hex');
  return {
    'webhook-id': id,
    'webhook-timestamp': seconds,
    'webhook-signature': `v1,${standard}`,
    'x-pingram-id': id,
    'x-pingram-timestamp': millis,
    'x-pingram-signature': `v1,${pingram}`,
  };
}

/**
 * The wait before each attempt (the Standard Webhooks schedule): the first at once,
 * then, after each failure, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: about 28 h in all.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/** Network errors, timeouts, 408, 429 and 5xx are retried; any other answer is final. */
export const isRetryableStatus = (status: number | undefined): boolean =>
  status === undefined || status === 408 || status === 429 || status >= 500;

/** One attempt's outcome as the log keeps it (`*_webhook_res`): the status, or why there was none. */
export function webhookResult(
  outcome: { status?: number; error?: string },
  attempt: number,
  retrying: boolean,
): string {
  const what =
    outcome.status === undefined ? `no answer (${outcome.error ?? 'network error'})` : String(outcome.status);
  if (outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) return what;
  return `${what} on attempt ${attempt}${retrying ? ', retrying' : ''}`;
}
