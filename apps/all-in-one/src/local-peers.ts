import { mailOutbox, type OutboxSource, slackOutbox, twilioOutboxes } from '@notify/gateway-dev-outbox';
import { MailCatcher } from '@notify/mail-catcher';
import type { AppConfig, Logger } from '@notify/platform';
import { SlackPeer } from '@notify/slack-peer';
import { TwilioPeer } from '@notify/twilio-peer';

/** Twilio's magic "from" number: valid for test credentials, and the local peer's default sender. */
const LOCAL_FROM_NUMBER = '+15005550006';

export interface LocalPeers {
  readonly config: AppConfig;
  readonly outboxes: readonly OutboxSource[];
  /** One line per channel served locally, for the banner. */
  readonly served: readonly string[];
}

/**
 * The all-in-one service serves every channel whose provider is not configured through a local
 * peer that speaks the provider's protocol (decisions 12); the senders use the real SDKs against
 * it, and `/dev/outbox/{channel}` shows what arrived. Nothing leaves the machine.
 */
export async function startLocalPeers(given: AppConfig, logger: Logger): Promise<LocalPeers> {
  let config = given;
  const outboxes: OutboxSource[] = [];
  const served: string[] = [];
  if (config.email.smtpUrl === undefined) {
    const catcher = new MailCatcher({ keep: 1_000 });
    await catcher.start(config.dev.mailCatcherPort);
    catcher.onMessage((mail) =>
      logger.info(
        { mailId: mail.id, to: mail.to, subject: mail.subject },
        'mail caught (see /dev/outbox/email)',
      ),
    );
    config = { ...config, email: { ...config.email, smtpUrl: catcher.url } };
    outboxes.push(mailOutbox(catcher));
    served.push('email');
  }
  if (config.twilio.accountSid === undefined) {
    const twilio = new TwilioPeer({ keep: 1_000 });
    await twilio.start();
    config = {
      ...config,
      twilio: {
        ...config.twilio,
        accountSid: twilio.accountSid,
        authToken: twilio.authToken,
        fromNumber: config.twilio.fromNumber ?? LOCAL_FROM_NUMBER,
        apiUrl: twilio.url,
      },
    };
    outboxes.push(...twilioOutboxes(twilio));
    served.push('sms', 'call');
  }
  if (config.slack.clientId === undefined) {
    const slack = new SlackPeer({ keep: 1_000 });
    await slack.start();
    config = {
      ...config,
      slack: { clientId: slack.clientId, clientSecret: slack.clientSecret, apiUrl: slack.url },
    };
    outboxes.push(slackOutbox(slack));
    served.push('slack');
  }
  if (served.length > 0)
    logger.info({ channels: served }, 'channels without a provider are served by local peers');
  return { config, outboxes, served };
}

/**
 * Where providers reach this service (status callbacks): PUBLIC_URL, else the address it listens
 * on when that is known before it starts.
 */
export function withPublicUrl(config: AppConfig): AppConfig {
  if (config.http.publicUrl !== undefined || config.http.port === 0) return config;
  const host = config.http.host === '0.0.0.0' ? '127.0.0.1' : config.http.host;
  return { ...config, http: { ...config.http, publicUrl: `http://${host}:${config.http.port}` } };
}
