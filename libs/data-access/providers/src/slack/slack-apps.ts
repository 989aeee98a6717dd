import { Injectable } from '@nestjs/common';
import { type SlackApp, slackAppSetting, type TenantScope } from '@notify/domain';
import { type AppConfig, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { LogLevel, type Logger as SlackLogger, WebClient } from '@slack/web-api';

/** The SDK's logger interface over ours: its rate-limit and retry notices land in the service log. */
function slackLogger(logger: Logger): SlackLogger {
  let level = LogLevel.WARN;
  return {
    debug: (...msg) => logger.debug({ slack: msg.map(String).join(' ') }, 'slack sdk'),
    info: (...msg) => logger.info({ slack: msg.map(String).join(' ') }, 'slack sdk'),
    warn: (...msg) => logger.warn({ slack: msg.map(String).join(' ') }, 'slack sdk'),
    error: (...msg) => logger.error({ slack: msg.map(String).join(' ') }, 'slack sdk'),
    setLevel: (next) => (level = next),
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * Slack Web API clients, and the Slack app (client id and secret) an environment's OAuth runs with:
 * its own (a provider setting), else the deployment's (SLACK_CLIENT_ID/SECRET). A client is built
 * per call: it holds no connection of its own (the SDK uses the process's fetch pool) and carries
 * the token and the tracking id of the message it sends.
 */
@Injectable()
export class SlackApps {
  private readonly sdkLogger: SlackLogger;

  constructor(
    private readonly settings: ProviderSettings,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() logger: Logger,
  ) {
    this.sdkLogger = slackLogger(logger);
  }

  async appOf(scope: TenantScope): Promise<SlackApp | undefined> {
    const own = await this.settings.get(scope, slackAppSetting);
    if (own !== undefined) return own;
    const { clientId, clientSecret } = this.config.slack;
    return clientId === undefined || clientSecret === undefined ? undefined : { clientId, clientSecret };
  }

  /**
   * A client for one token. The SDK waits out a 429's Retry-After and retries network failures
   * itself, a few times within about half a minute; what still fails is classified by the caller.
   */
  client(token: string | undefined, trackingId?: string, apiUrl = this.config.slack.apiUrl): WebClient {
    return new WebClient(token, {
      slackApiUrl: apiUrl,
      logger: this.sdkLogger,
      timeout: 15_000,
      retryConfig: { retries: 3, factor: 2, minTimeout: 1_000, maxTimeout: 10_000 },
      ...(trackingId !== undefined ? { headers: { 'x-notify-tracking-id': trackingId } } : {}),
    });
  }
}
