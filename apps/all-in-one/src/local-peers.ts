import {
  mailOutbox,
  mobilePushOutbox,
  type OutboxSource,
  slackOutbox,
  twilioOutboxes,
  webPushOutbox,
} from '@notify/gateway-dev-outbox';
import { MailCatcher, rehearsalRefusals, reportComplaints } from '@notify/local-peer-mail';
import type { AppConfig, Logger } from '@notify/platform';
import { ApnsPeer, FcmPeer, WebPushPeer } from '@notify/local-peer-push';
import { SlackPeer } from '@notify/local-peer-slack';
import { TwilioPeer } from '@notify/local-peer-twilio';
import { createServer, type AddressInfo } from 'node:net';

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
 * peer that speaks the provider's real protocol; the senders use the real SDKs against
 * it, and `/dev/outbox/{channel}` shows what arrived. Nothing leaves the machine.
 */
/** The inbound mail domain of a newcomer's all-in-one (no DNS needed: mail reaches the listener directly). */
const LOCAL_MAIL_DOMAIN = 'inbound.notify.localhost';

/** A port free on loopback right now (the inbound listener binds it a moment later). */
async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Local peers and the /dev routes are development stand-ins: they run only with DEV_MODE (which
 * `npm start` sets), never by default, since a peer reports every SMS "delivered" and the routes
 * show what it caught. Either way the start says which it is. Without them a channel with no
 * provider settings fails with its own "not configured" code instead of reaching a peer.
 */
export async function startDevStandIns(config: AppConfig, logger: Logger): Promise<LocalPeers> {
  if (!config.dev.enabled) {
    logger.info(
      { devMode: false },
      'DEV_MODE is off: no local provider peers and no /dev routes (test environments keep /dev/outbox); channels without provider settings fail as not configured',
    );
    return { config, outboxes: [], served: [] };
  }
  const peers = await startLocalPeers(config, logger);
  logger.warn(
    { devMode: true, channels: peers.served },
    'DEV_MODE is on: local provider peers serve channels without provider settings and /dev routes are open (development only; never expose this service)',
  );
  return peers;
}

async function startLocalPeers(given: AppConfig, logger: Logger): Promise<LocalPeers> {
  let config = given;
  const outboxes: OutboxSource[] = [];
  const served: string[] = [];
  if (config.email.smtpUrl === undefined) {
    const catcher = new MailCatcher({ keep: 1_000, refuseRecipient: rehearsalRefusals() });
    await catcher.start(config.dev.mailCatcherPort);
    catcher.onMessage((mail) =>
      logger.info(
        { mailId: mail.id, to: mail.to, subject: mail.subject },
        'mail caught (see /dev/outbox/email)',
      ),
    );
    // Rehearsals (see docs/api-behaviour.md): @bounce.test is refused, @tempfail.test twice; mail to
    // @complaint.test is reported back as a complaint (ARF) to the inbound listener, which
    // the all-in-one runs on INBOUND_SMTP_PORT (a free port when unset), for a local mail domain
    // (replies to caught mail can be sent there with any SMTP client). The catcher's complaints
    // count: it is a feedback loop the listener trusts.
    const inboundSmtpPort = config.inbound.smtpPort ?? (await freeLoopbackPort());
    reportComplaints(catcher, { host: '127.0.0.1', port: inboundSmtpPort });
    config = {
      ...config,
      email: { ...config.email, smtpUrl: catcher.url },
      inbound: {
        ...config.inbound,
        smtpPort: inboundSmtpPort,
        mailDomain: config.inbound.mailDomain ?? LOCAL_MAIL_DOMAIN,
        // The catcher reports over loopback, so that address is a feedback loop here.
        feedbackLoopSources: [...config.inbound.feedbackLoopSources, '127.0.0.1'],
      },
    };
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
  ({ config } = await startPushPeers(config, outboxes, served));
  return { config, outboxes, served };
}

/** The CA certificates (PEM) push connections trust beyond the system's: the operator's and the peers'. */
const withCa = (given: string | undefined, peerCa: string) =>
  given === undefined ? peerCa : given.includes(peerCa) ? given : `${given}\n${peerCa}`;

/**
 * Mobile push without credentials or a configured endpoint goes to local FCM and APNs peers (the
 * default credentials are made for them here). They are the providers of this installation, so
 * they also accept the well-formed credentials an environment sets for itself (PUT
 * /settings/push/fcm, /apn): a newcomer rehearses with their own key files and sees the pushes in
 * the outbox. Web push subscriptions minted by the local web push peer
 * (`POST /dev/outbox/web_push/subscriptions`) reach it without the egress guard.
 */
async function startPushPeers(
  given: AppConfig,
  outboxes: OutboxSource[],
  served: string[],
): Promise<{ config: AppConfig }> {
  let push = given.push;
  const mobile: (FcmPeer | ApnsPeer)[] = [];
  if (push.fcmServiceAccount === undefined && push.peers.fcmUrl === undefined) {
    const fcm = new FcmPeer({ keep: 1_000, acceptAnyAccount: true });
    await fcm.start();
    push = {
      ...push,
      fcmServiceAccount: JSON.stringify(fcm.registerServiceAccount()),
      peers: { ...push.peers, fcmUrl: fcm.url, ca: withCa(push.peers.ca, fcm.ca) },
    };
    mobile.push(fcm);
  }
  if (push.apns === undefined && push.peers.apnsUrl === undefined) {
    const apns = new ApnsPeer({ keep: 1_000, acceptAnyKey: true });
    await apns.start();
    const key = apns.registerKey();
    push = {
      ...push,
      apns: { keyId: key.keyId, teamId: key.teamId, key: key.key, topic: 'dev.notify.local' },
      peers: { ...push.peers, apnsUrl: apns.url, ca: withCa(push.peers.ca, apns.ca) },
    };
    mobile.push(apns);
  }
  if (mobile.length > 0) {
    outboxes.push(mobilePushOutbox(mobile));
    served.push('mobile_push');
  }
  if (push.peers.webPushUrl === undefined) {
    const webPush = new WebPushPeer({ keep: 1_000 });
    await webPush.start();
    push = {
      ...push,
      peers: { ...push.peers, webPushUrl: webPush.url, ca: withCa(push.peers.ca, webPush.ca) },
    };
    outboxes.push(webPushOutbox(webPush));
    served.push('web_push');
  }
  return { config: { ...given, push } };
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
