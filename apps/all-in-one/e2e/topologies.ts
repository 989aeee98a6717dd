import { provisionerFor } from '@notify/gateway-feature';
import { loadAppConfig } from '@notify/platform';
import { MailCatcher, rehearsalRefusals, reportComplaints } from '@notify/local-peer-mail';
import { ApnsPeer, FcmPeer, WebPushPeer } from '@notify/local-peer-push';
import { SlackPeer } from '@notify/local-peer-slack';
import { TwilioPeer } from '@notify/local-peer-twilio';
import { Collections, MongoDocumentStore } from '@notify/store';
import {
  failedTestCount,
  freePort,
  requireBackend,
  type RunningService,
  startService,
  tempDir,
  testBackends,
  uniqueName,
} from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A running installation under test, its SMTP peer and a local file server for URL attachments. */
export interface Topology {
  readonly baseUrl: string;
  /** The variables the services run with. */
  readonly env: Readonly<Record<string, string>>;
  readonly apiKey: string;
  readonly mail: MailCatcher;
  /** The Twilio-compatible peer SMS and calls go to, and the Slack Web API peer. */
  readonly twilio: TwilioPeer;
  readonly slack: SlackPeer;
  /** The FCM, APNs and web push peers mobile and web pushes go to. */
  readonly fcm: FcmPeer;
  readonly apns: ApnsPeer;
  readonly webPush: WebPushPeer;
  readonly fileUrl: (name: string) => string;
  readonly files: Map<string, Buffer>;
  readonly services: Map<string, RunningService>;
  /**
   * Everything the installation keeps at rest, as text (data files, and documents in MongoDB), to
   * check that a secret given to it is not stored in the clear.
   */
  storedText(): Promise<string>;
  /** Restarts a service that was killed (same configuration). */
  restart(name: string): Promise<RunningService>;
  stop(): Promise<void>;
}

async function fileServer(
  files: Map<string, Buffer>,
): Promise<{ server: Server; url: (name: string) => string }> {
  const server = createServer((req, res) => {
    const content = files.get(decodeURIComponent((req.url ?? '').slice(1)));
    if (content === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(content);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}` };
}

const newKey = () => `notify_sk_${randomBytes(24).toString('base64url')}`;

async function peers() {
  const mail = new MailCatcher({ refuseRecipient: rehearsalRefusals() });
  await mail.start();
  const twilio = new TwilioPeer();
  await twilio.start();
  const slack = new SlackPeer();
  await slack.start();
  const [fcm, apns, webPush] = [new FcmPeer(), new ApnsPeer(), new WebPushPeer()];
  await Promise.all([fcm.start(), apns.start(), webPush.start()]);
  const files = new Map<string, Buffer>();
  const { server, url } = await fileServer(files);
  // The gateway's and the inbound service's ports are chosen up front: providers post callbacks
  // to PUBLIC_URL (the all-in-one's, or in a cluster the inbound service's).
  const [gatewayPort, inboundPort, inboundSmtpPort] = [await freePort(), await freePort(), await freePort()];
  // Mail to @complaint.test comes back as a complaint to the inbound listener (a rehearsal
  // convention of the local mail catcher).
  reportComplaints(mail, { host: '127.0.0.1', port: inboundSmtpPort });
  return {
    mail,
    twilio,
    slack,
    fcm,
    apns,
    webPush,
    files,
    server,
    fileUrl: url,
    gatewayPort,
    inboundPort,
    inboundSmtpPort,
  };
}

type Peers = Awaited<ReturnType<typeof peers>>;

/** What every service of a topology needs to reach the peers; `publicPort` takes the callbacks. */
const peerEnv = (parts: Peers, publicPort: number) => ({
  SMTP_URL: parts.mail.url,
  TWILIO_ACCOUNT_SID: parts.twilio.accountSid,
  TWILIO_AUTH_TOKEN: parts.twilio.authToken,
  TWILIO_FROM_NUMBER: '+15005550006',
  TWILIO_API_URL: parts.twilio.url,
  SLACK_CLIENT_ID: parts.slack.clientId,
  SLACK_CLIENT_SECRET: parts.slack.clientSecret,
  SLACK_API_URL: parts.slack.url,
  // Environments bring their own push credentials (PUT /settings/push/*); the peers stand in for
  // Google and Apple, and the web push peer is the trusted local one (it learns tracking ids).
  FCM_API_URL: parts.fcm.url,
  APNS_API_URL: parts.apns.url,
  PUSH_PEER_CA: parts.fcm.ca,
  WEB_PUSH_PEER_URL: parts.webPush.url,
  PUBLIC_URL: `http://127.0.0.1:${publicPort}`,
  // Webhook retries a test can wait for (the real schedule spans 28 hours).
  WEBHOOK_RETRY_SCHEDULE_MS: '0,300,600,1200',
  // Where bounce and complaint reports go (the all-in-one's or the inbound service's listener).
  INBOUND_SMTP_PORT: String(parts.inboundSmtpPort),
  INBOUND_MAIL_DOMAIN: 'inbound.notify.test',
  // Whose complaints count: the mail servers at these addresses. The catcher's rehearsal and the
  // mailbox provider the tests play connect from 127.0.0.1; a forged report comes from 127.0.0.3.
  FEEDBACK_LOOP_SOURCES: '127.0.0.1',
  // Domains custom inbound addresses (and From addresses) may use.
  EMAIL_VERIFIED_DOMAINS: 'acme.test,mail.acme.test',
});

async function stopPeers(parts: Peers): Promise<void> {
  await Promise.all([
    parts.mail.stop(),
    parts.twilio.stop(),
    parts.slack.stop(),
    parts.fcm.stop(),
    parts.apns.stop(),
    parts.webPush.stop(),
    new Promise<void>((resolve) => parts.server.close(() => resolve())),
  ]);
}

/** The bytes of every file under a directory, as one latin1 string. */
async function filesText(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const texts = await Promise.all(
    names.map((name) =>
      readFile(join(dir, name)).then(
        (b) => b.toString('latin1'),
        () => '',
      ),
    ),
  );
  return texts.join('\n');
}

const OUTPUT_LINES = 200;

/** The last lines each service wrote (LOG_LEVEL warn: its warnings and errors), by service name. */
function recentOutput(services: ReadonlyMap<string, RunningService>): string {
  return [...services]
    .flatMap(([name, service]) =>
      service
        .output()
        .split('\n')
        .filter((line) => line.length > 0)
        .slice(-OUTPUT_LINES)
        .map((line) => `[${name}] ${line}`),
    )
    .join('\n');
}

function topology(
  parts: Peers,
  env: Record<string, string>,
  apiKey: string,
  services: Map<string, RunningService>,
  start: (name: string) => Promise<RunningService>,
  cleanup: () => Promise<void>,
  storedText: () => Promise<string>,
): Topology {
  const gateway = [...services].find(([name]) => name.startsWith('gateway') || name === 'all-in-one')?.[1];
  if (gateway === undefined) throw new Error('no gateway in this topology');
  const failuresBefore = failedTestCount();
  return {
    baseUrl: gateway.baseUrl,
    env,
    apiKey,
    storedText,
    mail: parts.mail,
    twilio: parts.twilio,
    slack: parts.slack,
    fcm: parts.fcm,
    apns: parts.apns,
    webPush: parts.webPush,
    files: parts.files,
    fileUrl: parts.fileUrl,
    services,
    restart: async (name) => {
      const service = await start(name);
      services.set(name, service);
      return service;
    },
    stop: async () => {
      // A failed test is diagnosed from what the services logged, which the test output lacks.
      if (failedTestCount() > failuresBefore) {
        process.stderr.write(
          `A test failed; the services' last ${OUTPUT_LINES} lines of output:\n${recentOutput(services)}\n`,
        );
      }
      await Promise.all([...services.values()].map((s) => s.stop()));
      await stopPeers(parts);
      await cleanup();
    },
  };
}

/** `npm start`: every service in one process on the embedded backends. */
export async function embeddedTopology(): Promise<Topology> {
  const parts = await peers();
  const data = await tempDir('notify-e2e-');
  const apiKey = newKey();
  const env = {
    DATA_DIR: data.path,
    BOOTSTRAP_API_KEY: apiKey,
    ...peerEnv(parts, parts.gatewayPort),
    EGRESS_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
  };
  const start = (name: string) => startService(name, { ...env, PORT: String(parts.gatewayPort) });
  const services = new Map([['all-in-one', await start('all-in-one')]]);
  return topology(parts, env, apiKey, services, start, data.remove, () => filesText(data.path));
}

export interface ClusterOptions {
  /** Where the services reach MongoDB (a test may put a proxy in between); the test backend otherwise. */
  readonly mongoUri?: (database: string) => string;
  /** Extra variables for every service. */
  readonly env?: Record<string, string>;
  /** Services to start (gateway, router and every sender by default). */
  readonly services?: readonly string[];
  /** Default push credentials the peers accept (FCM_SERVICE_ACCOUNT, APNS_*), for every environment. */
  readonly pushDefaults?: boolean;
}

/** Deployment-wide push credentials made for the peers. */
const pushDefaultsEnv = (parts: Peers) => {
  const key = parts.apns.registerKey();
  return {
    FCM_SERVICE_ACCOUNT: JSON.stringify(parts.fcm.registerServiceAccount('notify-default')),
    APNS_KEY_ID: key.keyId,
    APNS_TEAM_ID: key.teamId,
    APNS_KEY: key.key,
    APNS_TOPIC: 'com.example.notify',
  };
};

/**
 * The cluster shape: gateway, recorder, router, scheduler, the senders, the webhook dispatcher and
 * the inbound service (which PUBLIC_URL points at, as an ingress would route /inbound) as separate
 * processes over Kafka, MongoDB, Redis and a ClickHouse server (a database of its own per topology).
 */
export async function clusterTopology(options: ClusterOptions = {}): Promise<Topology> {
  await Promise.all([
    requireBackend('kafka'),
    requireBackend('mongo'),
    requireBackend('redis'),
    requireBackend('clickhouse'),
  ]);
  const parts = await peers();
  const data = await tempDir('notify-e2e-');
  const mongo = new URL(testBackends.mongoUri);
  mongo.pathname = `/${uniqueName('e2e').replace(/-/g, '_')}`;
  const apiKey = newKey();
  const store = new MongoDocumentStore(mongo.toString());
  await provisionerFor(store, loadAppConfig({})).execute({
    apiKey,
  });
  await store.close();
  const env = {
    BUS_DRIVER: 'kafka',
    KAFKA_BROKERS: testBackends.kafkaBrokers.join(','),
    KAFKA_TOPIC_PREFIX: `${uniqueName('e2e')}.`,
    KAFKA_PARTITIONS: '3',
    KAFKA_SESSION_TIMEOUT_MS: '10000',
    STORE_DRIVER: 'mongodb',
    MONGODB_URI: options.mongoUri?.(mongo.pathname.slice(1)) ?? mongo.toString(),
    CACHE_DRIVER: 'redis',
    REDIS_URL: testBackends.redisUrl,
    REDIS_KEY_PREFIX: `${uniqueName('e2e')}:`,
    CLICKHOUSE_URL: testBackends.clickhouseUrl,
    CLICKHOUSE_DATABASE: uniqueName('e2e').replace(/-/g, '_'),
    ...peerEnv(parts, parts.inboundPort),
    ...(options.pushDefaults === true ? pushDefaultsEnv(parts) : {}),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    EGRESS_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  // Each gateway replica has a data directory of its own.
  const start = (name: string) =>
    startService(
      name.replace(/-\d+$/, ''),
      name.startsWith('gateway')
        ? {
            ...env,
            DATA_DIR: join(data.path, name),
            ...(name === 'gateway' ? { PORT: String(parts.gatewayPort) } : {}),
          }
        : name === 'inbound'
          ? { ...env, PORT: String(parts.inboundPort) }
          : env,
    );
  const names = options.services ?? [
    'gateway',
    'recorder',
    'router',
    'scheduler',
    'sender-email',
    'sender-sms',
    'sender-call',
    'sender-slack',
    'sender-push',
    'sender-web-push',
    'sender-inapp',
    'webhook-dispatcher',
    'inbound',
  ];
  const attempts = await Promise.allSettled(names.map(async (name) => [name, await start(name)] as const));
  const started = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
  const failed = attempts.find((a) => a.status === 'rejected');
  if (failed !== undefined) {
    // Leave nothing running behind a failed start.
    await Promise.all(started.map(([, service]) => service.stop()));
    await Promise.all([stopPeers(parts), data.remove()]);
    throw failed.reason;
  }
  const storedText = async () => {
    const documents = new MongoDocumentStore(mongo.toString());
    try {
      const environments = await documents.collection(Collections.environments).find({});
      const users = await documents.collection(Collections.users).find({});
      return `${JSON.stringify(environments)}\n${JSON.stringify(users)}\n${await filesText(data.path)}`;
    } finally {
      await documents.close();
    }
  };
  return topology(parts, env, apiKey, new Map(started), start, data.remove, storedText);
}
