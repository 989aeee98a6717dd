import { Injectable } from '@nestjs/common';
import { TrackingLimitsStore } from '@notify/cache';
import { DeliveryEventsPublisher, PreferenceChanges } from '@notify/delivery-events';
import type { LogFields, TrackingPayload } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import type { Clock } from '@notify/util';
import { TrackingTokens } from './tracking-tokens';

/** Who opened or clicked, as the log keeps it (bounded). */
export interface Visitor {
  readonly userAgent?: string;
  readonly ip?: string;
}

const bounded = (value: string | undefined, max: number) =>
  value === undefined ? undefined : value.slice(0, max);

/**
 * The email tracking links: an open pixel, click redirects and one-click
 * unsubscribe, each a token the email sender signed for one message. Opens and clicks are logged
 * on the message (`email_opened_*`, `email_clicked_*`), which the webhook dispatcher forwards as
 * EMAIL_OPEN and EMAIL_CLICK; an unsubscribe turns the user's email off for the message's type
 * (EMAIL_UNSUBSCRIBE). The links are public: each client address has TRACKING_REQUESTS_PER_MINUTE,
 * and a message's open counts once per TRACKING_OPEN_WINDOW_SECONDS (a replayed pixel makes no
 * record and no webhook).
 */
@Injectable()
export class EmailTrackingUseCase {
  constructor(
    private readonly events: DeliveryEventsPublisher,
    private readonly preferences: PreferenceChanges,
    private readonly tokens: TrackingTokens,
    private readonly limits: TrackingLimitsStore,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /**
   * Counts a request to a link: a valid token's against its message, another against the client's
   * address (mail providers' image proxies and link scanners fetch for many readers from a few
   * addresses, so a valid link is never refused for its address). Undefined while within the share,
   * else the seconds until its minute ends.
   */
  async throttled(address: string, payload: TrackingPayload | undefined): Promise<number | undefined> {
    const now = this.clock.now();
    const who =
      payload === undefined ? `address/${address}` : `message/${payload.a}/${payload.e}/${payload.t}`;
    const { count, resetAt } = await this.limits.request(who, now);
    return count > this.config.tracking.requestsPerMinute
      ? Math.max(1, Math.ceil((resetAt - now) / 1_000))
      : undefined;
  }

  /** The token's payload when it is one of ours, of this kind. */
  read(token: string, kind: TrackingPayload['k']): TrackingPayload | undefined {
    return this.tokens.read(token, kind);
  }

  async opened(payload: TrackingPayload, visitor: Visitor): Promise<void> {
    const now = this.clock.now();
    const scope = { accountId: payload.a, envId: payload.e };
    if (!(await this.limits.firstOpen(scope, payload.t, this.config.tracking.openWindowMs, now))) return;
    try {
      await this.recordOpen(payload, visitor, now);
    } catch (error) {
      await this.limits.forgetOpen(scope, payload.t);
      throw error;
    }
  }

  private recordOpen(payload: TrackingPayload, visitor: Visitor, now: number): Promise<void> {
    return this.record(
      payload,
      'email_opened',
      {
        email_opened_at: new Date(now).toISOString(),
        ...(visitor.userAgent !== undefined
          ? { email_opened_user_agent: bounded(visitor.userAgent, 500) }
          : {}),
        ...(visitor.ip !== undefined ? { email_opened_ip: visitor.ip } : {}),
      } as LogFields,
      now,
    );
  }

  async clicked(payload: TrackingPayload, visitor: Visitor): Promise<void> {
    const now = this.clock.now();
    await this.record(
      payload,
      'email_clicked',
      {
        email_clicked_at: new Date(now).toISOString(),
        email_clicked_link: bounded(payload.l, 2_000),
        ...(payload.g !== undefined ? { email_clicked_link_tags: payload.g.join(',') } : {}),
        ...(visitor.userAgent !== undefined
          ? { email_clicked_user_agent: bounded(visitor.userAgent, 500) }
          : {}),
        ...(visitor.ip !== undefined ? { email_clicked_ip: visitor.ip } : {}),
      } as LogFields,
      now,
    );
  }

  /** The EMAIL_UNSUBSCRIBE it causes names the message and its user, as the token does. */
  async unsubscribe(payload: TrackingPayload): Promise<void> {
    const scope = { accountId: payload.a, envId: payload.e };
    await this.preferences.apply(
      scope,
      payload.u,
      [{ notificationId: payload.n, channel: 'EMAIL', delivery: 'off' }],
      payload.t,
    );
    this.logger.info(
      { ...scope, trackingId: payload.t, userId: payload.u, notificationId: payload.n },
      'unsubscribed from email by the one-click link',
    );
  }

  private async record(
    payload: TrackingPayload,
    name: string,
    fields: LogFields,
    now: number,
  ): Promise<void> {
    const subject = {
      accountId: payload.a,
      envId: payload.e,
      trackingId: payload.t,
      userId: payload.u,
      notificationId: payload.n,
    };
    await this.events.publish(this.events.event(subject, name, fields, 'email', now));
  }
}
