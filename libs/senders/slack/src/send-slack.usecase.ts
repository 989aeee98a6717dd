import { Injectable } from '@nestjs/common';
import { afterMs, DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type DeliveryEvent,
  isTransientSlackError,
  slackFailureCode,
  type SlackJob,
  type SlackToken,
} from '@notify/domain';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { SlackApps, SlackResolver } from '@notify/providers';
import { failedEvent, OnceDelivery, withProviderRetries } from '@notify/sender-common';
import { UserRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { type ChatPostMessageArguments, ErrorCode, type WebClient } from '@slack/web-api';

const iso = (ms: number) => new Date(ms).toISOString();

/** The Slack error code of a failed call ('request_failed' when Slack was not reached). */
function slackError(error: unknown): string {
  const { code, data, statusCode } = error as {
    code?: string;
    data?: { error?: string };
    statusCode?: number;
  };
  if (code === ErrorCode.PlatformError) return data?.error ?? 'unknown_error';
  if (code === ErrorCode.HTTPError)
    return (statusCode ?? 500) >= 500 ? 'service_unavailable' : `http_${statusCode}`;
  return 'request_failed';
}

const isTransient = (error: unknown) => {
  const code = slackError(error);
  return code === 'request_failed' || isTransientSlackError(code);
};

/** Users looked up for an `@username` destination: at most this many pages of users.list. */
const MAX_USER_PAGES = 20;

class SlackRefusal extends Error {
  constructor(readonly error: string) {
    super(error);
  }
}

/**
 * Posts one Slack message with the user's token (`chat.postMessage`, every option of the `slack` content)
 * and logs `slack_sent_*`/`slack_delivered_*` or `slack_failed_*` with the spec's code. A rotated
 * token that expired is refreshed once with its refresh_token and the new one stored on the user.
 * The SDK waits out 429s (Retry-After) itself; server errors are retried with backoff.
 */
@Injectable()
export class SendSlackUseCase {
  constructor(
    private readonly once: OnceDelivery,
    private readonly apps: SlackApps,
    private readonly slack: SlackResolver,
    private readonly users: UserRepository,
    private readonly events: DeliveryEventsPublisher,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  execute(job: SlackJob): Promise<void> {
    return this.once.run('SLACK', job, () => this.deliver(job));
  }

  private async deliver(job: SlackJob): Promise<DeliveryEvent[]> {
    const token = await this.users.slackToken(job, job.userId);
    if (token?.access_token === undefined)
      return [this.failed(job, 'INVALID_AUTH', 'the user has no slackToken')];
    try {
      return this.delivered(job, await this.postWithRefresh(job, token));
    } catch (error) {
      const code = error instanceof SlackRefusal ? error.error : slackError(error);
      return [this.failed(job, slackFailureCode(code), `Slack answered ${code}`)];
    }
  }

  private async postWithRefresh(job: SlackJob, token: SlackToken): Promise<string> {
    try {
      return await this.post(job, token.access_token ?? '');
    } catch (error) {
      const refreshToken = typeof token.refresh_token === 'string' ? token.refresh_token : undefined;
      if (slackError(error) !== 'token_expired' || refreshToken === undefined) throw error;
      const refreshed = await this.refresh(job, refreshToken);
      return this.post(job, refreshed.access_token ?? '');
    }
  }

  private async refresh(job: SlackJob, refreshToken: string): Promise<SlackToken> {
    const app = await this.apps.appOf(job);
    if (app === undefined) throw new SlackRefusal('token_expired');
    const answer = await (
      await this.slack.client(job, undefined)
    ).oauth.v2.access({
      client_id: app.clientId,
      client_secret: app.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    });
    const token = { ...answer, ok: true } as SlackToken;
    await this.users.identify(job, job.userId, { slackToken: token }, iso(this.clock.now()), false);
    this.logger.info({ trackingId: job.trackingId, userId: job.userId }, 'refreshed an expired Slack token');
    return token;
  }

  /** Posts the message; answers where it landed (channel id and ts). */
  private async post(job: SlackJob, token: string): Promise<string> {
    const client = await this.slack.client(job, token);
    const channel = await this.destination(client, job.channel);
    const icon =
      job.icon === undefined
        ? {}
        : /^:[^:\s]+:$/.test(job.icon)
          ? { icon_emoji: job.icon }
          : { icon_url: job.icon };
    const message = {
      channel,
      ...(job.text !== undefined ? { text: job.text } : {}),
      ...(job.blocks !== undefined ? { blocks: job.blocks } : {}),
      ...(job.username !== undefined ? { username: job.username } : {}),
      ...icon,
      ...(job.thread_ts !== undefined
        ? { thread_ts: job.thread_ts, reply_broadcast: job.reply_broadcast ?? false }
        : {}),
      ...(job.parse !== undefined ? { parse: job.parse } : {}),
      ...(job.link_names !== undefined ? { link_names: job.link_names } : {}),
      ...(job.mrkdwn !== undefined ? { mrkdwn: job.mrkdwn } : {}),
      ...(job.unfurl_links !== undefined ? { unfurl_links: job.unfurl_links } : {}),
      ...(job.unfurl_media !== undefined ? { unfurl_media: job.unfurl_media } : {}),
      ...(job.metadata?.event_type !== undefined
        ? {
            metadata: {
              event_type: job.metadata.event_type,
              event_payload: job.metadata.event_payload ?? {},
            },
          }
        : {}),
    } as ChatPostMessageArguments;
    const answer = await withProviderRetries(
      () => client.chat.postMessage(message),
      isTransient,
      (error, attempt) =>
        this.logger.warn(
          { trackingId: job.trackingId, attempt, error: slackError(error) },
          'Slack refused for now; retrying',
        ),
      [1_000, 4_000],
    );
    return `${answer.channel ?? channel} ${answer.ts ?? ''}`.trim();
  }

  /** `#name` → `name`; `@username` → that user's id (a direct message); ids as they are. */
  private async destination(client: WebClient, channel: string): Promise<string> {
    if (channel.startsWith('#')) return channel.slice(1);
    if (!channel.startsWith('@')) return channel;
    const name = channel.slice(1).toLowerCase();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_USER_PAGES; page++) {
      const answer = await client.users.list({ limit: 200, ...(cursor ? { cursor } : {}) });
      const match = answer.members?.find(
        (m) => m.name?.toLowerCase() === name || m.profile?.display_name?.toLowerCase() === name,
      );
      if (match?.id !== undefined) return match.id;
      cursor = answer.response_metadata?.next_cursor;
      if (!cursor) break;
    }
    throw new SlackRefusal('channel_not_found');
  }

  private delivered(job: SlackJob, where: string): DeliveryEvent[] {
    const now = this.clock.now();
    const after = afterMs(job.receivedAt, now);
    return [
      this.events.event(
        job,
        'slack_sent',
        { slack_sent_at: iso(now), slack_sent_after: after },
        'slack',
        now,
      ),
      this.events.event(
        job,
        'slack_delivered',
        { slack_delivered_at: iso(now), slack_delivered_after: after, slack_delivered_internal: where },
        'slack',
        now,
      ),
    ];
  }

  private failed(job: SlackJob, code: string, internal: string): DeliveryEvent {
    return failedEvent(this.events, job, 'SLACK', this.clock.now(), code, internal);
  }
}
