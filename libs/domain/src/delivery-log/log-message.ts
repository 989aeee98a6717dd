import { z } from 'zod';
import type { DeliveryEvent } from './delivery-event';
import type { LogField } from './log-fields';

/**
 * `resolutionType`'s values as pingram types them (GetLogsResponseMessagesInnerResolutionTypeEnum),
 * so a listed message always fits the client. The inbound email service sets `reply`, `builtin` or
 * `custom`; nothing sets `inbound`, which the client's enum has and is kept for that alone.
 */
export const MESSAGE_RESOLUTION_TYPES = ['reply', 'builtin', 'custom', 'inbound'] as const;

/**
 * One delivery event as `GET /logs` lists it: what happened and when, and for an inbound email or
 * SMS the message as its log fields keep it. Attachments are not among them (the log keeps their
 * count only), so a listed message never has any.
 */
export interface LogMessage {
  readonly trackingId: string;
  readonly eventType: string;
  readonly timestamp: string;
  readonly epochMs: number;
  readonly inbox?: string;
  readonly from?: string;
  readonly fromName?: string;
  readonly subject?: string;
  readonly to?: string[];
  readonly cc?: string[];
  readonly bcc?: string[];
  readonly replyTo?: string;
  readonly bodyText?: string;
  readonly bodyHtml?: string;
  readonly media?: { url: string; contentType?: string }[];
  readonly messageId?: string;
  readonly inReplyTo?: string;
  readonly references?: string;
  readonly resolutionType?: (typeof MESSAGE_RESOLUTION_TYPES)[number];
}

/** `sms_inbound_media` as the inbound service writes it: JSON, cut at a bound (then not listed). */
const mediaSchema = z.array(z.object({ url: z.string(), contentType: z.string().optional() }));

/**
 * The message of one logged event. A field the event did not set, or set empty, is left out; the
 * address lists are comma-separated in the log (addresses without display names).
 */
export function logMessageOf(
  event: Pick<DeliveryEvent, 'trackingId' | 'event' | 'time' | 'fields'>,
): LogMessage {
  const text = (...fields: LogField[]): string | undefined => {
    for (const field of fields) {
      const value = event.fields[field];
      if (typeof value === 'string' && value.length > 0) return value;
    }
    return undefined;
  };
  const list = (field: LogField) => text(field)?.split(',');
  const smsTo = text('sms_inbound_to');
  const resolution = text('email_inbound_resolution_type');
  const message: Record<string, unknown> = {
    trackingId: event.trackingId,
    eventType: event.event,
    timestamp: new Date(event.time).toISOString(),
    epochMs: event.time,
    inbox: text('email_inbound_inbox'),
    from: text('email_inbound_from', 'sms_inbound_from'),
    fromName: text('email_inbound_from_name'),
    subject: text('email_inbound_subject'),
    to: smsTo !== undefined ? [smsTo] : list('email_inbound_to'),
    cc: list('email_inbound_cc'),
    bcc: list('email_inbound_bcc'),
    replyTo: text('email_inbound_reply_to'),
    bodyText: text('email_inbound_body_text', 'sms_inbound_text'),
    bodyHtml: text('email_inbound_body_html'),
    media: mediaOf(text('sms_inbound_media')),
    messageId: text('email_inbound_message_id'),
    inReplyTo: text('email_inbound_in_reply_to'),
    references: text('email_inbound_references'),
    resolutionType: MESSAGE_RESOLUTION_TYPES.find((type) => type === resolution),
  };
  return Object.fromEntries(
    Object.entries(message).filter(([, value]) => value !== undefined),
  ) as unknown as LogMessage;
}

function mediaOf(json: string | undefined): LogMessage['media'] {
  if (json === undefined) return undefined;
  try {
    const media = mediaSchema.safeParse(JSON.parse(json));
    return media.success ? media.data.map((m) => (m.contentType ? m : { url: m.url })) : undefined;
  } catch {
    return undefined;
  }
}
