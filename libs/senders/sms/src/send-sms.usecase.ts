import { Injectable } from '@nestjs/common';
import { SmsConversationsStore } from '@notify/cache';
import { afterMs, DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type DeliveryEvent,
  type LastSms,
  phoneFailureCode,
  priceOf,
  smsSegments,
  type SmsJob,
} from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import {
  isTransientTwilioError,
  type ResolvedTwilio,
  SenderNumbers,
  twilioCallbackUrl,
  TwilioResolver,
  twilioRefusal,
} from '@notify/providers';
import { failedEvent, OnceDelivery, withProviderRetries } from '@notify/sender-common';
import type { Clock } from '@notify/util';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Sends one SMS or MMS through Twilio and logs `sms_sent_*` (encoding and segments as carriers
 * count them, cost from the rate tables), or `sms_failed_*` with Twilio's code. Delivery receipts
 * arrive later on the status callback. Rate limits and server errors are retried with backoff;
 * any other refusal fails once.
 */
@Injectable()
export class SendSmsUseCase {
  constructor(
    private readonly once: OnceDelivery,
    private readonly twilio: TwilioResolver,
    private readonly conversations: SmsConversationsStore,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
    private readonly senderNumbers: SenderNumbers,
  ) {}

  execute(job: SmsJob): Promise<void> {
    return this.once.run('SMS', job, (takeover) => this.deliver(job, takeover));
  }

  private async deliver(job: SmsJob, takeover: boolean): Promise<DeliveryEvent[]> {
    const twilio = await this.twilio.for(job);
    if (twilio === undefined)
      return [
        this.failed(
          job,
          'Unknown',
          'no Twilio account is configured (TWILIO_ACCOUNT_SID, or the environment’s twilio setting)',
        ),
      ];
    const { account } = twilio;
    // Checked when the send was accepted, and again now: the number may have been released since.
    if (job.from !== undefined && !(await this.senderNumbers.mayUse(job, job.from)))
      return [
        this.failed(job, 'Unknown', `sms.from ${job.from} is not a number this environment may send from`),
      ];
    const from = job.from ?? account.fromNumber;
    if (from === undefined && account.messagingServiceSid === undefined)
      return [
        this.failed(job, 'Unknown', 'the Twilio account has no default from-number or messaging service'),
      ];
    // The recipient replied STOP: no provider call, the code Twilio itself would answer.
    if (await this.conversations.isOptedOut(job, job.to))
      return [this.failed(job, '21610', 'the recipient replied STOP to this environment; a START lifts it')];
    try {
      // An earlier attempt died mid-send: Twilio may have the message already, and has no
      // idempotency key for creating one, so ask it before sending again.
      const earlier = takeover ? await this.findSent(job, twilio, from) : undefined;
      const sid = earlier ?? (await this.create(job, twilio, from));
      const sender = from ?? account.messagingServiceSid ?? '';
      await this.rememberLast(job, sender);
      return [this.sent(job, sender, sid)];
    } catch (error) {
      const refusal = twilioRefusal(error);
      return [
        this.failed(
          job,
          phoneFailureCode(refusal.code),
          `Twilio refused the message${refusal.code !== undefined ? ` (${refusal.code})` : ''}: ${refusal.message}`,
        ),
      ];
    }
  }

  /** Kept for the inbound service: a reply from this number refers to this SMS (and gets its autoReply). */
  private async rememberLast(job: SmsJob, from: string): Promise<void> {
    const last: LastSms = {
      trackingId: job.trackingId,
      from,
      ...(job.autoReply !== undefined ? { autoReply: job.autoReply } : {}),
      sentAt: iso(this.clock.now()),
      userId: job.userId,
      notificationId: job.notificationId,
    };
    await this.conversations.remember(job, job.to, last);
  }

  /** The message an earlier attempt of this job created, if Twilio has it (same number, body, after the send came in). */
  private async findSent(
    job: SmsJob,
    { client }: ResolvedTwilio,
    from: string | undefined,
  ): Promise<string | undefined> {
    const since = job.receivedAt - 60_000;
    const recent = await client.messages.list({
      to: job.to,
      ...(from !== undefined ? { from } : {}),
      dateSentAfter: new Date(since),
      limit: 100,
    });
    const match = recent.find((m) => m.body === job.body && (m.dateCreated?.getTime() ?? 0) >= since);
    if (match !== undefined)
      this.logger.warn(
        { trackingId: job.trackingId, sid: match.sid },
        'SMS was sent by an earlier attempt; not sending again',
      );
    return match?.sid;
  }

  private async create(
    job: SmsJob,
    { client, account }: ResolvedTwilio,
    from: string | undefined,
  ): Promise<string> {
    const publicUrl = this.config.http.publicUrl;
    const message = await withProviderRetries(
      () =>
        client.messages.create({
          to: job.to,
          ...(from !== undefined ? { from } : { messagingServiceSid: account.messagingServiceSid }),
          ...(job.body.length > 0 ? { body: job.body } : {}),
          ...(job.mediaUrls.length > 0 ? { mediaUrl: job.mediaUrls } : {}),
          ...(publicUrl !== undefined ? { statusCallback: twilioCallbackUrl(publicUrl, 'status', job) } : {}),
        }),
      isTransientTwilioError,
      (error, attempt) =>
        this.logger.warn(
          { trackingId: job.trackingId, attempt, err: twilioRefusal(error) },
          'SMS refused for now; retrying',
        ),
    );
    return message.sid;
  }

  private sent(job: SmsJob, from: string, messageId: string): DeliveryEvent {
    const now = this.clock.now();
    const mms = job.mediaUrls.length > 0;
    const { encoding, segments } = smsSegments(job.body);
    const pricing = this.config.pricing;
    return this.events.event(
      job,
      'sms_sent',
      {
        sms_sent_at: iso(now),
        sms_sent_after: afterMs(job.receivedAt, now),
        sms_sent_from: from,
        sms_sent_encoding: encoding,
        sms_sent_segments: segments,
        // An MMS is one message of MIME parts (its text and each medium); an SMS, its segments.
        sms_sent_parts: mms ? (job.body.length > 0 ? 1 : 0) + job.mediaUrls.length : segments,
        sms_sent_cost: mms
          ? priceOf(pricing.mmsPerMessage, job.country, 1)
          : priceOf(pricing.smsPerSegment, job.country, segments),
        ...(job.country !== undefined ? { sms_sent_country: job.country } : {}),
        sms_sent_messageId: messageId,
        sms_sent_mms: mms,
      },
      'sms',
      now,
    );
  }

  private failed(job: SmsJob, code: string, internal: string): DeliveryEvent {
    return failedEvent(this.events, job, 'SMS', this.clock.now(), code, internal);
  }
}
