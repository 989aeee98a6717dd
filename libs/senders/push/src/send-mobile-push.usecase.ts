import { Injectable } from '@nestjs/common';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  apnsNotification,
  apnsRefusal,
  type DeliveryEvent,
  fcmMessage,
  fcmRefusal,
  type MobilePushJob,
  type PushTarget,
} from '@notify/domain';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { MobilePushResolver } from '@notify/providers';
import {
  type DeviceLog,
  type DeviceResult,
  deviceEvents,
  OnceDelivery,
  sendToEach,
} from '@notify/sender-common';
import { UserRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import apn from '@parse/node-apn';

/** The log names a mobile push's token when it was sent or failed, not when delivered. */
const LOG: DeviceLog = { channel: 'PUSH', deliveredToken: false };

/**
 * Sends one push to every device of the user: FCM tokens through firebase-admin (FCM HTTP v1, one
 * request per token over a keep-alive connection), APNs tokens through node-apn (one HTTP/2 session
 * per key and gateway). Each device's outcome is logged (`mobile_push_sent_*`/`_delivered_*`, or
 * `_failed_*` with the spec's code); tokens the provider says are dead are removed from the user.
 * Rate limits and server errors are retried with backoff per device.
 */
@Injectable()
export class SendMobilePushUseCase {
  constructor(
    private readonly once: OnceDelivery,
    private readonly providers: MobilePushResolver,
    private readonly users: UserRepository,
    private readonly events: DeliveryEventsPublisher,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  execute(job: MobilePushJob): Promise<void> {
    return this.once.run('PUSH', job, () => this.deliver(job));
  }

  private async deliver(job: MobilePushJob): Promise<DeliveryEvent[]> {
    const of = (type: PushTarget['type'], production?: boolean) =>
      job.targets
        .filter(
          (t) =>
            t.type === type && (production === undefined || (t.environment === 'production') === production),
        )
        .map((t) => t.token);
    const results = [
      ...(await this.viaFcm(job, of('FCM'))),
      ...(await this.viaApns(job, of('APN', true), true)),
      ...(await this.viaApns(job, of('APN', false), false)),
    ];
    await this.forgetDead(job, results);
    const now = this.clock.now();
    return results.flatMap((result) => deviceEvents(this.events, job, LOG, result, now));
  }

  private async viaFcm(job: MobilePushJob, tokens: readonly string[]): Promise<DeviceResult[]> {
    if (tokens.length === 0) return [];
    const client = await this.providers.fcm(job);
    if (client === undefined)
      return this.refused(
        tokens,
        'NO_FCM_CONFIG',
        'no FCM service account (PUT /settings/push/fcm, or FCM_SERVICE_ACCOUNT)',
      );
    return sendToEach(
      tokens,
      async (pending) => {
        const at = this.clock.now();
        try {
          const batch = await client.sendEach(pending.map((token) => fcmMessage(job, token)));
          return batch.responses.map((response, i): DeviceResult => {
            const token = pending[i] ?? '';
            if (response.success) return { token, ok: true, at };
            const code = response.error?.code;
            return {
              token,
              ok: false,
              at,
              refusal: fcmRefusal(code),
              internal: `FCM answered ${code ?? 'nothing'}: ${response.error?.message ?? ''}`,
            };
          });
        } catch (error) {
          const code = (error as { code?: string }).code;
          return pending.map((token) => ({
            token,
            ok: false,
            at,
            refusal: fcmRefusal(code),
            internal: `FCM: ${String(error)}`,
          }));
        }
      },
      (pending, attempt) =>
        this.logger.warn({ trackingId: job.trackingId, pending, attempt }, 'FCM refused for now; retrying'),
    );
  }

  private async viaApns(
    job: MobilePushJob,
    tokens: readonly string[],
    production: boolean,
  ): Promise<DeviceResult[]> {
    if (tokens.length === 0) return [];
    const target = await this.providers.apns(job);
    if (target === undefined)
      return this.refused(
        tokens,
        'NO_APN_CONFIG',
        'no APNs key (PUT /settings/push/apn, or APNS_KEY_ID and the rest)',
      );
    const client = target.client(production);
    return sendToEach(
      tokens,
      async (pending) => {
        const at = this.clock.now();
        const note = new apn.Notification(apnsNotification(job, target.key.topic, Math.floor(at / 1000)));
        const { sent, failed } = await client.send(note, [...pending]);
        return [
          ...sent.map((s): DeviceResult => ({ token: s.device, ok: true, at })),
          ...failed.map((f): DeviceResult => {
            const status = f.status === undefined ? undefined : Number(f.status);
            const reason = f.response?.reason;
            return {
              token: f.device,
              ok: false,
              at,
              refusal: apnsRefusal(status, reason),
              internal: `APNs answered ${status ?? 'nothing'} ${reason ?? String(f.error ?? '')}`.trim(),
            };
          }),
        ];
      },
      (pending, attempt) =>
        this.logger.warn({ trackingId: job.trackingId, pending, attempt }, 'APNs refused for now; retrying'),
    );
  }

  private refused(tokens: readonly string[], code: string, internal: string): DeviceResult[] {
    const at = this.clock.now();
    return tokens.map((token) => ({
      token,
      ok: false,
      at,
      refusal: { code, dead: false, transient: false },
      internal,
    }));
  }

  /** Dead tokens leave the user record, so the next send does not try them again. */
  private async forgetDead(job: MobilePushJob, results: readonly DeviceResult[]): Promise<void> {
    const dead = results.flatMap((r) => (!r.ok && r.refusal.dead ? [r.token] : []));
    if (dead.length === 0) return;
    const removed = await this.users.removePushTargets(job, job.userId, { tokens: dead });
    this.logger.info(
      { trackingId: job.trackingId, userId: job.userId, removed },
      'removed push tokens the provider says are dead',
    );
  }
}
