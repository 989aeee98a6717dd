import { Injectable } from '@nestjs/common';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type DeliveryEvent,
  type VapidKeys,
  type WebPushJob,
  type WebPushSubscription,
  webPushPayload,
  webPushRefusal,
} from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { VapidKeyring, WebPushResolver } from '@notify/providers';
import {
  type DeviceLog,
  type DeviceResult,
  deviceEvents,
  failedEvent,
  OnceDelivery,
  sendToEach,
} from '@notify/sender-common';
import { UserRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import webpush, { WebPushError } from 'web-push';

/** How long a push service may take to answer (RFC 8030 services answer in well under a second). */
const TIMEOUT_MS = 15_000;
/** The log names the delivered subscription of a web push. */
const LOG: DeviceLog = { channel: 'WEB_PUSH', deliveredToken: true };

/**
 * Sends one web push to every browser subscription of the user (RFC 8030), its payload encrypted
 * for the subscription (RFC 8291, aes128gcm) and signed with the environment's VAPID key (RFC
 * 8292). Endpoints are tenant-supplied URLs: every connection goes through the egress guard, except
 * to the local peer this deployment runs. A 404/410 removes the subscription from the user.
 */
@Injectable()
export class SendWebPushUseCase {
  constructor(
    private readonly once: OnceDelivery,
    private readonly vapid: VapidKeyring,
    private readonly destinations: WebPushResolver,
    private readonly users: UserRepository,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  execute(job: WebPushJob): Promise<void> {
    return this.once.run('WEB_PUSH', job, () => this.deliver(job));
  }

  private async deliver(job: WebPushJob): Promise<DeliveryEvent[]> {
    const keys = await this.vapid.keysOf(job);
    if (keys === undefined)
      return job.subscriptions.map((s) =>
        failedEvent(
          this.events,
          job,
          'WEB_PUSH',
          this.clock.now(),
          'UNKNOWN',
          'the environment no longer exists',
          { web_push_failed_token: s.endpoint },
        ),
      );
    const byEndpoint = new Map(job.subscriptions.map((s) => [s.endpoint, s]));
    const results = await sendToEach(
      [...byEndpoint.keys()],
      (endpoints) =>
        Promise.all(
          endpoints.map((endpoint) => this.push(job, keys, byEndpoint.get(endpoint) as WebPushSubscription)),
        ),
      (pending, attempt) =>
        this.logger.warn(
          { trackingId: job.trackingId, pending, attempt },
          'web push refused for now; retrying',
        ),
    );
    const dead = results.flatMap((r) => (!r.ok && r.refusal.dead ? [r.token] : []));
    if (dead.length > 0) {
      const removed = await this.users.removePushTargets(job, job.userId, { endpoints: dead });
      this.logger.info(
        { trackingId: job.trackingId, userId: job.userId, removed },
        'removed web push subscriptions that are gone',
      );
    }
    const now = this.clock.now();
    return results.flatMap((result) => deviceEvents(this.events, job, LOG, result, now));
  }

  private async push(
    job: WebPushJob,
    keys: VapidKeys,
    subscription: WebPushSubscription,
  ): Promise<DeviceResult> {
    const at = this.clock.now();
    const target = await this.destinations.destination(job, subscription);
    if (target === undefined)
      return {
        token: subscription.endpoint,
        ok: false,
        at,
        refusal: { code: 'UNKNOWN', dead: false, transient: false },
        internal:
          'a test environment pushes only to subscriptions from POST /dev/outbox/web_push/subscriptions',
      };
    try {
      await webpush.sendNotification(target.subscription, webPushPayload(job), {
        vapidDetails: {
          subject: this.config.push.webPush.subject,
          publicKey: keys.publicKey,
          privateKey: keys.privateKey,
        },
        TTL: this.config.push.webPush.ttlSeconds,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
        timeout: TIMEOUT_MS,
        agent: target.agent,
        // Only a local peer learns the tracking id (its outbox is per send); push services never do.
        ...(target.local ? { headers: { 'x-notify-tracking-id': job.trackingId } } : {}),
      });
      return { token: subscription.endpoint, ok: true, at };
    } catch (error) {
      const status = error instanceof WebPushError ? error.statusCode : undefined;
      const detail =
        error instanceof WebPushError ? `${error.statusCode} ${error.body}`.trim() : String(error);
      return {
        token: subscription.endpoint,
        ok: false,
        at,
        refusal: webPushRefusal(status),
        internal: `push service answered ${detail}`.slice(0, 500),
      };
    }
  }
}
