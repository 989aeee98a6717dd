import { Injectable } from '@nestjs/common';
import { afterMs, DeliveryEventsPublisher } from '@notify/delivery-events';
import { type CallJob, type DeliveryEvent, escapeTwiml, phoneFailureCode } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import {
  isTransientTwilioError,
  type ResolvedTwilio,
  twilioCallbackUrl,
  twilioRefusal,
  TwilioResolver,
} from '@notify/providers';
import { failedEvent, OnceDelivery, withProviderRetries } from '@notify/sender-common';
import type { Clock } from '@notify/util';

const iso = (ms: number) => new Date(ms).toISOString();
/** The text Twilio speaks, escaped so that no merge-tag value can add TwiML verbs of its own. */
export const sayTwiml = (message: string): string =>
  `<Response><Say>${escapeTwiml(message)}</Say></Response>`;

/**
 * Places one call that speaks the message (TwiML `<Say>`), and logs `call_sent_*` or
 * `call_failed_*` with Twilio's code. How the call ended (and its cost) arrives on the call status
 * callback. Rate limits and server errors are retried with backoff; other refusals fail once.
 */
@Injectable()
export class SendCallUseCase {
  constructor(
    private readonly once: OnceDelivery,
    private readonly twilio: TwilioResolver,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  execute(job: CallJob): Promise<void> {
    return this.once.run('CALL', job, () => this.deliver(job));
  }

  private async deliver(job: CallJob): Promise<DeliveryEvent[]> {
    const twilio = await this.twilio.for(job);
    if (twilio === undefined)
      return [
        this.failed(
          job,
          'Unknown',
          'no Twilio account is configured (TWILIO_ACCOUNT_SID, or the environment’s twilio setting)',
        ),
      ];
    const from = twilio.account.fromNumber;
    if (from === undefined)
      return [this.failed(job, 'Unknown', 'the Twilio account has no from-number to call from')];
    try {
      await this.create(job, twilio, from);
      return [this.sent(job, from)];
    } catch (error) {
      const refusal = twilioRefusal(error);
      return [
        this.failed(
          job,
          phoneFailureCode(refusal.code),
          `Twilio refused the call${refusal.code !== undefined ? ` (${refusal.code})` : ''}: ${refusal.message}`,
        ),
      ];
    }
  }

  private async create(job: CallJob, { client }: ResolvedTwilio, from: string): Promise<void> {
    const publicUrl = this.config.http.publicUrl;
    await withProviderRetries(
      () =>
        client.calls.create({
          to: job.to,
          from,
          twiml: sayTwiml(job.message),
          ...(publicUrl !== undefined
            ? {
                statusCallback: twilioCallbackUrl(publicUrl, 'call-status', job),
                statusCallbackEvent: ['completed'],
              }
            : {}),
        }),
      isTransientTwilioError,
      (error, attempt) =>
        this.logger.warn(
          { trackingId: job.trackingId, attempt, err: twilioRefusal(error) },
          'call refused for now; retrying',
        ),
    );
  }

  private sent(job: CallJob, from: string): DeliveryEvent {
    const now = this.clock.now();
    return this.events.event(
      job,
      'call_sent',
      { call_sent_at: iso(now), call_sent_after: afterMs(job.receivedAt, now), call_sent_from: from },
      'call',
      now,
    );
  }

  private failed(job: CallJob, code: string, internal: string): DeliveryEvent {
    return failedEvent(this.events, job, 'CALL', this.clock.now(), code, internal);
  }
}
