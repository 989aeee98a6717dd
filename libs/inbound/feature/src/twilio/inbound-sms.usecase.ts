import { Injectable } from '@nestjs/common';
import { SmsConversationsStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  classifyInboundSms,
  type DeliveryEvent,
  type LastSms,
  type LogFields,
  normalizePhoneNumber,
  parsePhoneNumber,
  priceOf,
  smsSegments,
  type TenantScope,
  type TwilioForm,
  twilioField,
} from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import type { Clock } from '@notify/util';
import { randomUUID } from 'node:crypto';

const MAX_TEXT = 1_600;
const MAX_MEDIA_JSON = 2_000;

/**
 * An inbound SMS, already verified as Twilio's: STOP and its synonyms opt the number
 * out of this environment's SMS (later sends fail 21610 without reaching Twilio), START and its
 * synonyms opt it back in, anything else is a message, answered once with the last send's
 * `autoReply` (given back for the webhook's TwiML answer, which Twilio sends). Each gets a log record of its own (`sms_inbound_*`, `sms_unsubscribe_*`,
 * `sms_subscribe_*`) carrying the user and type of the last SMS to that number, which the webhook
 * dispatcher forwards as SMS_INBOUND (with `lastTrackingId`), SMS_UNSUBSCRIBE or SMS_SUBSCRIBE.
 */
@Injectable()
export class InboundSmsUseCase {
  constructor(
    private readonly events: DeliveryEventsPublisher,
    private readonly conversations: SmsConversationsStore,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /** The message's own tracking id, and the text to answer it with, if any. */
  async receive(scope: TenantScope, form: TwilioForm): Promise<{ trackingId: string; reply?: string }> {
    const now = this.clock.now();
    const sender = twilioField(form, 'From') ?? '';
    const from = normalizePhoneNumber(sender) ?? sender;
    const to = twilioField(form, 'To') ?? '';
    const text = (twilioField(form, 'Body') ?? '').slice(0, MAX_TEXT);
    const last = await this.conversations.last(scope, from);
    const at = new Date(now).toISOString();
    const kind = classifyInboundSms(text);
    const trackingId = randomUUID();
    const subject = {
      ...scope,
      trackingId,
      ...(last?.userId !== undefined ? { userId: last.userId } : {}),
      ...(last?.notificationId !== undefined ? { notificationId: last.notificationId } : {}),
    };
    const record: LogFields = {
      received_at: at,
      clientId: scope.envId,
      ...(last?.notificationId !== undefined ? { type: last.notificationId } : {}),
      ...(last?.userId !== undefined ? { user_id: last.userId } : {}),
      user_number: from,
    };
    const events: DeliveryEvent[] = [];
    let reply: string | undefined;
    if (kind.kind === 'unsubscribe') {
      await this.conversations.optOut(scope, from, kind.keyword, at);
      events.push(
        this.event(
          subject,
          'sms_unsubscribe',
          {
            ...record,
            sms_unsubscribe_at: at,
            sms_unsubscribe_from: from,
            sms_unsubscribe_keyword: kind.keyword,
          },
          last,
          now,
        ),
      );
    } else if (kind.kind === 'subscribe') {
      await this.conversations.optIn(scope, from);
      events.push(
        this.event(
          subject,
          'sms_subscribe',
          {
            ...record,
            sms_subscribe_at: at,
            sms_subscribe_from: from,
            sms_subscribe_keyword: kind.keyword,
          },
          last,
          now,
        ),
      );
    } else {
      const media = mediaOf(form);
      events.push(
        this.event(
          subject,
          'sms_inbound',
          {
            ...record,
            sms_inbound_at: at,
            sms_inbound_from: from,
            sms_inbound_to: to,
            sms_inbound_text: text,
            ...(media !== undefined ? { sms_inbound_media: media } : {}),
          },
          last,
          now,
        ),
      );
      const replied = last === undefined ? undefined : await this.autoReply(scope, last, from, now);
      if (replied !== undefined) {
        events.push(replied);
        reply = last?.autoReply;
      }
    }
    await this.events.publish(...events);
    return { trackingId, ...(reply !== undefined ? { reply } : {}) };
  }

  private event(
    subject: Parameters<DeliveryEventsPublisher['event']>[0],
    name: string,
    fields: LogFields,
    last: LastSms | undefined,
    now: number,
  ): DeliveryEvent {
    const event = this.events.event(subject, name, fields, 'sms', now);
    return last === undefined ? event : { ...event, webhookExtras: { lastTrackingId: last.trackingId } };
  }

  /**
   * The last send's autoReply, answered once per send however many replies come; logged on that
   * send. Twilio sends it from the number the reply came to, as the messaging webhook's answer.
   */
  private async autoReply(
    scope: TenantScope,
    last: LastSms,
    userNumber: string,
    now: number,
  ): Promise<DeliveryEvent | undefined> {
    if (last.autoReply === undefined) return undefined;
    if (!(await this.conversations.firstReply(scope, last.trackingId, now))) return undefined;
    const { encoding, segments } = smsSegments(last.autoReply);
    return this.events.event(
      {
        ...scope,
        trackingId: last.trackingId,
        ...(last.userId !== undefined ? { userId: last.userId } : {}),
        ...(last.notificationId !== undefined ? { notificationId: last.notificationId } : {}),
      },
      'sms_replied',
      {
        sms_replied_at: new Date(now).toISOString(),
        sms_replied_to: userNumber,
        sms_replied_text: last.autoReply,
        sms_replied_encoding: encoding,
        sms_replied_segments: segments,
        // Twilio charges for the reply as for any SMS: priced as the SMS sender prices a send, so
        // billing meters it.
        sms_replied_cost: priceOf(
          this.config.pricing.smsPerSegment,
          parsePhoneNumber(userNumber)?.country,
          segments,
        ),
      },
      'sms',
      now,
    );
  }
}

/** An MMS's media, as the log keeps it: a bounded JSON list of {url, contentType}. */
function mediaOf(form: TwilioForm): string | undefined {
  const count = Math.min(10, Number(twilioField(form, 'NumMedia') ?? 0) || 0);
  if (count === 0) return undefined;
  const media = Array.from({ length: count }, (_, i) => ({
    url: twilioField(form, `MediaUrl${i}`) ?? '',
    contentType: twilioField(form, `MediaContentType${i}`) ?? '',
  }));
  return JSON.stringify(media).slice(0, MAX_MEDIA_JSON);
}
