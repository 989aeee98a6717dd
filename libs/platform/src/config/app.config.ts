import { domainName } from '@notify/util';
import { z } from 'zod';
import {
  envAddressList,
  envChannelRates,
  envBool,
  envDelayList,
  envDnsServers,
  envHostPortList,
  envInt,
  envPort,
  envPriceTiers,
  envRateTable,
  envSecretKey,
  envSecretKeyList,
  envTrustProxy,
  envUrl,
} from './env.schemas';
import { API_KEY_PATTERN } from '../auth/api-key-format';
import { parseConfig, type Requirement } from './config.loader';

/**
 * The service's whole configuration, read from environment variables. `.env.example`, the Helm
 * ConfigMap/Secret and this schema list the same variables; keep them in step.
 */
/** A PEM block in one variable: real newlines, or `\n` as one-line env files and Helm values write them. */
const envPem = z
  .string()
  .min(1)
  .max(16_384)
  .transform((value) => value.replace(/\\n/g, '\n'));

const envSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: envPort.default(3000),
  PUBLIC_URL: envUrl(['http', 'https']).optional(),
  BODY_LIMIT_MB: envInt(1, 100).default(10),
  TRUST_PROXY: envTrustProxy.default(false),
  SHED_MAX_IN_FLIGHT: envInt(0, 1_000_000).default(1_024),
  SHED_EVENT_LOOP_DELAY_MS: envInt(0, 60_000).default(1_000),
  SHED_HEAP_USED_PERCENT: envInt(0, 100).default(85),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  DATA_DIR: z.string().default('.data/local'),
  SHUTDOWN_GRACE_MS: envInt(0, 600_000).default(25_000),

  BUS_DRIVER: z.enum(['embedded', 'kafka']).default('embedded'),
  KAFKA_BROKERS: envHostPortList.optional(),
  KAFKA_CLIENT_ID: z.string().default('notify'),
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/, 'expected letters, digits, ".", "_" or "-"')
    .default('notify.'),
  KAFKA_PARTITIONS: envInt(1, 1000).default(6),
  KAFKA_REPLICATION_FACTOR: envInt(1, 7).default(1),
  KAFKA_SESSION_TIMEOUT_MS: envInt(6_000, 300_000).default(30_000),
  // At least 10 ms: a member with no partitions polls in a loop that waits this long.
  KAFKA_FETCH_MAX_WAIT_MS: envInt(10, 10_000).default(50),
  // At most what a fetch may return (kafkajs's maxBytes, 10 MiB), or every fetch waits the maximum.
  KAFKA_FETCH_MIN_BYTES: envInt(1, 10 * 1024 * 1024).default(16_384),
  KAFKA_SSL: envBool.default(false),
  KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  KAFKA_SASL_USERNAME: z.string().optional(),
  KAFKA_SASL_PASSWORD: z.string().optional(),

  STORE_DRIVER: z.enum(['embedded', 'mongodb']).default('embedded'),
  MONGODB_URI: envUrl(['mongodb', 'mongodb+srv']).optional(),

  CLICKHOUSE_URL: envUrl(['http', 'https']).optional(),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an identifier')
    .default('notify'),
  CLICKHOUSE_USERNAME: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
  // Days the delivery log keeps an event (and a record after its last event); enforced by
  // ClickHouse TTLs, re-applied at start-up when it changes.
  LOG_RETENTION_DAYS: envInt(1, 3_650).default(30),

  CACHE_DRIVER: z.enum(['embedded', 'redis']).default('embedded'),
  REDIS_URL: envUrl(['redis', 'rediss']).optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._:-]*$/, 'expected letters, digits, ".", "_", ":" or "-"')
    .default('notify:'),

  SMTP_URL: envUrl(['smtp', 'smtps']).optional(),
  SMTP_POOL_SIZE: envInt(1, 100).default(10),
  EMAIL_FROM_ADDRESS: z
    .email({ message: 'expected an email address' })
    .default('notifications@notify.localhost'),
  EMAIL_FROM_NAME: z.string().default('Notify'),
  EMAIL_VERIFIED_DOMAINS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter((d) => d.length > 0),
    )
    .optional(),
  SMTP_MAX_RELAYS: envInt(1, 10_000).default(100),
  EMAIL_SEND_THREADS: envInt(0, 16).optional(),
  EMAIL_SPF_INCLUDE: z
    .string()
    .max(253)
    .refine((name) => 'domain' in domainName(name, { recordName: true }), {
      message: 'expected a public domain name such as _spf.example.com',
    })
    .optional(),
  DNS_SERVERS: envDnsServers.optional(),
  EGRESS_ALLOW_PRIVATE_NETWORKS: envBool.default(false),
  ATTACHMENT_FETCH_CONCURRENCY: envInt(1, 1_000).default(8),
  ATTACHMENT_FETCH_TIMEOUT_MS: envInt(1_000, 600_000).default(30_000),
  EMAIL_ATTACHMENTS_MAX_MB: envInt(1, 100).default(25),

  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'expected AC followed by 32 hex digits')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).max(256).optional(),
  TWILIO_FROM_NUMBER: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'expected an E.164 number such as +14155552671')
    .optional(),
  TWILIO_MESSAGING_SERVICE_SID: z
    .string()
    .regex(/^MG[0-9a-fA-F]{32}$/, 'expected MG followed by 32 hex digits')
    .optional(),
  TWILIO_NUMBERS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n.length > 0),
    )
    .refine((list) => list.every((n) => /^\+[1-9]\d{6,14}$/.test(n)), {
      message: 'expected comma-separated E.164 numbers',
    })
    .optional(),
  TWILIO_API_URL: envUrl(['http', 'https']).default('https://api.twilio.com'),
  TWILIO_CA_BUNDLE: z.string().max(4_096).optional(),
  HTTPS_PROXY: envUrl(['http', 'https']).optional(),
  HTTP_PROXY: envUrl(['http', 'https']).optional(),
  SMS_RATES: envRateTable.default({ US: 0.0083, CA: 0.0083, '*': 0.05 }),
  MMS_RATES: envRateTable.default({ US: 0.02, CA: 0.02, '*': 0.2 }),
  CALL_RATES: envRateTable.default({ US: 0.014, CA: 0.014, '*': 0.1 }),
  SLACK_CLIENT_ID: z.string().min(1).max(256).optional(),
  SLACK_CLIENT_SECRET: z.string().min(1).max(256).optional(),
  SLACK_API_URL: envUrl(['http', 'https']).default('https://slack.com/api/'),
  FCM_SERVICE_ACCOUNT: z.string().min(1).max(16_384).optional(),
  APNS_KEY_ID: z.string().min(1).max(64).optional(),
  APNS_TEAM_ID: z.string().min(1).max(64).optional(),
  APNS_KEY: envPem.optional(),
  APNS_TOPIC: z.string().min(1).max(256).optional(),
  FCM_API_URL: envUrl(['https']).optional(),
  APNS_API_URL: envUrl(['https']).optional(),
  PUSH_PEER_CA: envPem.optional(),
  WEB_PUSH_PEER_URL: envUrl(['https']).optional(),
  WEB_PUSH_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'expected a mailto: or https: URL')
    .default('mailto:push@notify.localhost'),
  WEB_PUSH_TTL_SECONDS: envInt(0, 2_419_200).default(86_400),

  SECRETS_KEY: envSecretKey.optional(),
  SECRETS_PREVIOUS_KEYS: envSecretKeyList.optional(),

  JWT_SECRET: z
    .string()
    .min(32, { message: 'expected at least 32 characters (HS256 needs 256 bits)' })
    .optional(),
  JWT_JWKS_URL: envUrl(['http', 'https']).optional(),
  JWT_ISSUER: z.string().min(1).max(1_000).optional(),
  JWT_AUDIENCE: z.string().min(1).max(1_000).optional(),
  BOOTSTRAP_OWNER_EMAIL: z
    .string()
    .max(320)
    .regex(/^[^\s@]+@[^\s@]+$/, { message: 'expected an email address' })
    .default('owner@notify.localhost'),
  INVITATION_TTL_HOURS: envInt(1, 8_760).default(168),
  OPERATOR_TOKEN: z
    .string()
    .min(32, { message: 'expected at least 32 characters (openssl rand -base64 32)' })
    .max(1_000)
    .optional(),

  STRIPE_SECRET_KEY: z.string().min(1).max(1_000).optional(),
  STRIPE_API_URL: envUrl(['http', 'https']).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).max(1_000).optional(),
  BILLING_FREE_MESSAGES: envInt(0, 1_000_000_000).default(3_000),
  BILLING_PRICES: envPriceTiers.optional(),
  BILLING_RATES: envChannelRates.optional(),

  AUTH_FAILURES_PER_MINUTE: envInt(1, 1_000_000).default(30),
  MAX_ENVIRONMENTS_PER_ACCOUNT: envInt(1, 10_000).default(20),
  MAX_KEYS_PER_ENVIRONMENT: envInt(1, 10_000).default(50),
  MAX_ACCOUNTS_PER_MEMBER: envInt(1, 10_000).default(20),
  MAX_PHONE_NUMBERS_PER_ACCOUNT: envInt(1, 1_000).default(10),
  MAX_SCHEDULE_AHEAD_DAYS: envInt(1, 3_650).default(365),
  LOG_QUERIES_PER_ENVIRONMENT: envInt(1, 1_000).default(5),
  DIGEST_WINDOW_MAX_MB: envInt(1, 24).default(16),
  DIGEST_ENVIRONMENT_MAX_MB: envInt(1, 65_536).default(256),
  SCHEDULED_SENDS_PER_ENVIRONMENT: envInt(1, 100_000_000).default(100_000),
  SCHEDULED_SENDS_ENVIRONMENT_MAX_MB: envInt(1, 65_536).default(256),
  TEMPLATE_CACHE_MB: envInt(1, 4_096).default(32),
  CONSUMER_RETRY_WINDOW_MS: envInt(1_000, 86_400_000).default(600_000),
  INBOUND_SMTP_PORT: envPort.optional(),
  INBOUND_MAIL_DOMAIN: z
    .string()
    .regex(/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/i, { message: 'expected a domain name' })
    // Compared with addresses, which are lower-cased: one spelling, decided here.
    .transform((domain) => domain.toLowerCase())
    .optional(),
  INBOUND_SMTP_MEMORY_MB: envInt(1, 4_096).default(64),
  INBOUND_SMTP_CONNECTIONS_PER_CLIENT: envInt(1, 10_000).default(10),
  INBOUND_SMTP_MESSAGES_PER_MINUTE: envInt(1, 1_000_000).default(120),
  FEEDBACK_LOOP_SOURCES: envAddressList.optional(),
  TRACKING_OPEN_WINDOW_SECONDS: envInt(1, 31_536_000).default(3_600),
  TRACKING_REQUESTS_PER_MINUTE: envInt(1, 1_000_000).default(300),
  WEBHOOK_RETRY_SCHEDULE_MS: envDelayList.optional(),
  WEBHOOK_TIMEOUT_MS: envInt(100, 60_000).default(15_000),
  WEBHOOK_ENDPOINT_CONCURRENCY: envInt(1, 256).default(8),
  DEV_MODE: envBool.default(false),
  CONSOLE_ENABLED: envBool.default(true),
  MAIL_CATCHER_PORT: envPort.default(0),
  BOOTSTRAP_API_KEY: z
    .string()
    .regex(API_KEY_PATTERN, { message: 'expected notify_sk_ followed by 32 base64url characters' })
    .optional(),

  OTEL_EXPORTER_OTLP_ENDPOINT: envUrl(['http', 'https']).optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
});

const requirements: Requirement[] = [
  ...['TWILIO_AUTH_TOKEN'].map((variable) => ({
    variable,
    when: (env: Record<string, string>) => env.TWILIO_ACCOUNT_SID !== undefined,
    because: 'TWILIO_ACCOUNT_SID is set',
  })),
  ...['APNS_TEAM_ID', 'APNS_KEY', 'APNS_TOPIC'].map((variable) => ({
    variable,
    when: (env: Record<string, string>) => env.APNS_KEY_ID !== undefined,
    because: 'APNS_KEY_ID is set',
  })),
  // A shared identity provider signs tokens for many applications: without both checks, a token
  // issued to any other application of the provider would sign its holder in here.
  ...['JWT_ISSUER', 'JWT_AUDIENCE'].map((variable) => ({
    variable,
    when: (env: Record<string, string>) => env.JWT_JWKS_URL !== undefined,
    because: 'JWT_JWKS_URL is set',
  })),
  {
    variable: 'SLACK_CLIENT_SECRET',
    when: (env) => env.SLACK_CLIENT_ID !== undefined,
    because: 'SLACK_CLIENT_ID is set',
  },
  { variable: 'KAFKA_BROKERS', when: (env) => env.BUS_DRIVER === 'kafka', because: 'BUS_DRIVER=kafka' },
  { variable: 'MONGODB_URI', when: (env) => env.STORE_DRIVER === 'mongodb', because: 'STORE_DRIVER=mongodb' },
  { variable: 'REDIS_URL', when: (env) => env.CACHE_DRIVER === 'redis', because: 'CACHE_DRIVER=redis' },
  ...['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'].map((variable) => ({
    variable,
    when: (env: Record<string, string>) => env.KAFKA_SASL_MECHANISM !== undefined,
    because: 'KAFKA_SASL_MECHANISM is set',
  })),
];

type Env = z.output<typeof envSchema>;

/** Every variable the services read (documented one to one in .env.example and the Helm chart). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

function toAppConfig(env: Env) {
  return {
    http: {
      host: env.HOST,
      port: env.PORT,
      publicUrl: env.PUBLIC_URL,
      bodyLimitBytes: env.BODY_LIMIT_MB * 1024 * 1024,
      trustProxy: env.TRUST_PROXY,
      shedding: {
        maxInFlight: env.SHED_MAX_IN_FLIGHT,
        maxEventLoopDelayMs: env.SHED_EVENT_LOOP_DELAY_MS,
        maxHeapUsedPercent: env.SHED_HEAP_USED_PERCENT,
      },
    },
    log: { level: env.LOG_LEVEL, pretty: env.LOG_FORMAT === 'pretty' },
    dataDir: env.DATA_DIR,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    bus:
      env.BUS_DRIVER === 'kafka'
        ? {
            driver: 'kafka' as const,
            brokers: env.KAFKA_BROKERS ?? [],
            clientId: env.KAFKA_CLIENT_ID,
            topicPrefix: env.KAFKA_TOPIC_PREFIX,
            partitions: env.KAFKA_PARTITIONS,
            replicationFactor: env.KAFKA_REPLICATION_FACTOR,
            sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
            fetch: { maxWaitMs: env.KAFKA_FETCH_MAX_WAIT_MS, minBytes: env.KAFKA_FETCH_MIN_BYTES },
            ssl: env.KAFKA_SSL,
            sasl:
              env.KAFKA_SASL_MECHANISM === undefined
                ? undefined
                : {
                    mechanism: env.KAFKA_SASL_MECHANISM,
                    username: env.KAFKA_SASL_USERNAME ?? '',
                    password: env.KAFKA_SASL_PASSWORD ?? '',
                  },
          }
        : { driver: 'embedded' as const, topicPrefix: env.KAFKA_TOPIC_PREFIX },
    store:
      env.STORE_DRIVER === 'mongodb'
        ? { driver: 'mongodb' as const, uri: env.MONGODB_URI ?? '' }
        : { driver: 'embedded' as const },
    eventLog: {
      url: env.CLICKHOUSE_URL,
      database: env.CLICKHOUSE_DATABASE,
      username: env.CLICKHOUSE_USERNAME,
      password: env.CLICKHOUSE_PASSWORD,
      retentionDays: env.LOG_RETENTION_DAYS,
    },
    cache:
      env.CACHE_DRIVER === 'redis'
        ? { driver: 'redis' as const, url: env.REDIS_URL ?? '', keyPrefix: env.REDIS_KEY_PREFIX }
        : { driver: 'embedded' as const },
    email: {
      smtpUrl: env.SMTP_URL,
      poolSize: env.SMTP_POOL_SIZE,
      fromAddress: env.EMAIL_FROM_ADDRESS,
      fromName: env.EMAIL_FROM_NAME,
      verifiedDomains: env.EMAIL_VERIFIED_DOMAINS ?? [],
      /**
       * What a sending domain's SPF record includes: the operator's own SPF policy for its relays,
       * by default `_spf.` + the domain of EMAIL_FROM_ADDRESS.
       */
      spfInclude: env.EMAIL_SPF_INCLUDE ?? `_spf.${env.EMAIL_FROM_ADDRESS.split('@').pop() ?? ''}`,
      maxRelays: env.SMTP_MAX_RELAYS,
      /**
       * Worker threads that compose and write the email (0: the sender's own thread). Unset, each
       * process decides: the all-in-one uses one, a standalone email sender none (it scales by replicas).
       */
      sendThreads: env.EMAIL_SEND_THREADS,
      attachments: {
        fetchConcurrency: env.ATTACHMENT_FETCH_CONCURRENCY,
        fetchTimeoutMs: env.ATTACHMENT_FETCH_TIMEOUT_MS,
        maxBytesPerEmail: env.EMAIL_ATTACHMENTS_MAX_MB * 1024 * 1024,
      },
    },
    twilio: {
      accountSid: env.TWILIO_ACCOUNT_SID,
      authToken: env.TWILIO_AUTH_TOKEN,
      fromNumber: env.TWILIO_FROM_NUMBER,
      messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID,
      numbers: env.TWILIO_NUMBERS ?? [],
      apiUrl: env.TWILIO_API_URL,
      caBundlePath: env.TWILIO_CA_BUNDLE,
      // The Twilio SDK's own client read HTTP_PROXY for its HTTPS requests; HTTPS_PROXY is the usual name.
      httpsProxy: env.HTTPS_PROXY ?? env.HTTP_PROXY,
    },
    slack: {
      clientId: env.SLACK_CLIENT_ID,
      clientSecret: env.SLACK_CLIENT_SECRET,
      apiUrl: env.SLACK_API_URL,
    },
    push: {
      /** The deployment's default Firebase service account (the JSON key file), checked by the push sender at start. */
      fcmServiceAccount: env.FCM_SERVICE_ACCOUNT,
      apns:
        env.APNS_KEY_ID === undefined
          ? undefined
          : {
              keyId: env.APNS_KEY_ID,
              teamId: env.APNS_TEAM_ID ?? '',
              key: env.APNS_KEY ?? '',
              topic: env.APNS_TOPIC ?? '',
            },
      /** Where FCM and APNs are reached instead of Google and Apple (local peers), and the CA they are trusted by. */
      peers: {
        fcmUrl: env.FCM_API_URL,
        apnsUrl: env.APNS_API_URL,
        ca: env.PUSH_PEER_CA,
        /** A web push service trusted as a local peer: endpoints on it skip the egress guard. */
        webPushUrl: env.WEB_PUSH_PEER_URL,
      },
      webPush: { subject: env.WEB_PUSH_SUBJECT, ttlSeconds: env.WEB_PUSH_TTL_SECONDS },
    },
    pricing: { smsPerSegment: env.SMS_RATES, mmsPerMessage: env.MMS_RATES, callPerMinute: env.CALL_RATES },
    billing: {
      /** Billing is on only with a Stripe key: no budgets, no usage limits, no 402 without one. */
      stripe:
        env.STRIPE_SECRET_KEY === undefined
          ? undefined
          : {
              secretKey: env.STRIPE_SECRET_KEY,
              apiUrl: env.STRIPE_API_URL,
              webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            },
      /** Messages per cycle for an organization without a paid tier. */
      freeMessages: env.BILLING_FREE_MESSAGES,
      /** Stripe price id → budget tier name. */
      prices: env.BILLING_PRICES ?? {},
      /** Per-message USD prices by channel overriding the built-in table (SMS and calls: SMS_RATES, CALL_RATES). */
      channelRates: env.BILLING_RATES ?? {},
    },
    egress: { allowPrivateNetworks: env.EGRESS_ALLOW_PRIVATE_NETWORKS },
    secrets: { key: env.SECRETS_KEY, previousKeys: env.SECRETS_PREVIOUS_KEYS ?? [] },
    identity: {
      /** Members' JWTs: HS256 with `secret`, RS256/ES256 with keys from `jwksUrl`; neither set: no JWT sign-in. */
      jwt: {
        secret: env.JWT_SECRET,
        jwksUrl: env.JWT_JWKS_URL,
        issuer: env.JWT_ISSUER,
        audience: env.JWT_AUDIENCE,
      },
      /** The default account's first owner, made on first start. */
      bootstrapOwnerEmail: env.BOOTSTRAP_OWNER_EMAIL.toLowerCase(),
      /** How long an invitation (or an email-change confirmation) link stays good. */
      invitationTtlHours: env.INVITATION_TTL_HOURS,
      /** The service operator's bearer token for the operator routes; unset: those routes do not exist. */
      operatorToken: env.OPERATOR_TOKEN,
    },
    limits: {
      authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE,
      environmentsPerAccount: env.MAX_ENVIRONMENTS_PER_ACCOUNT,
      keysPerEnvironment: env.MAX_KEYS_PER_ENVIRONMENT,
      /** Accounts one person may create (POST /accounts, POST /organizations), ever. */
      accountsPerMember: env.MAX_ACCOUNTS_PER_MEMBER,
      /** Active phone numbers an account may hold: each is rented on the deployment's Twilio account. */
      phoneNumbersPerAccount: env.MAX_PHONE_NUMBERS_PER_ACCOUNT,
      scheduleAheadMs: env.MAX_SCHEDULE_AHEAD_DAYS * 86_400_000,
      logQueriesPerEnvironment: env.LOG_QUERIES_PER_ENVIRONMENT,
      /** Sends held in one digest or batching window, in bytes; the environment's windows together. */
      digestWindowBytes: env.DIGEST_WINDOW_MAX_MB * 1024 * 1024,
      digestEnvironmentBytes: env.DIGEST_ENVIRONMENT_MAX_MB * 1024 * 1024,
      /** Scheduled sends an environment may have waiting, and their bytes together. */
      scheduledSendsPerEnvironment: env.SCHEDULED_SENDS_PER_ENVIRONMENT,
      scheduledBytesPerEnvironment: env.SCHEDULED_SENDS_ENVIRONMENT_MAX_MB * 1024 * 1024,
      templateCacheBytes: env.TEMPLATE_CACHE_MB * 1024 * 1024,
    },
    consumers: { retryWindowMs: env.CONSUMER_RETRY_WINDOW_MS },
    inbound: {
      /** Where the inbound service takes mail (bounce and complaint reports); none when unset. */
      smtpPort: env.INBOUND_SMTP_PORT,
      /** Our mail domain: the listener's recipients, and the envelope sender reports go back to. */
      mailDomain: env.INBOUND_MAIL_DOMAIN,
      /** Bytes of messages the listener reads at once, all connections together. */
      smtpMemoryBytes: env.INBOUND_SMTP_MEMORY_MB * 1024 * 1024,
      smtpConnectionsPerClient: env.INBOUND_SMTP_CONNECTIONS_PER_CLIENT,
      smtpMessagesPerMinute: env.INBOUND_SMTP_MESSAGES_PER_MINUTE,
      /** Whose complaint reports count: mail domains (and their subdomains) or addresses. */
      feedbackLoopSources: env.FEEDBACK_LOOP_SOURCES ?? [],
    },
    tracking: {
      /** One open is counted per message in this window. */
      openWindowMs: env.TRACKING_OPEN_WINDOW_SECONDS * 1_000,
      /** Requests to the tracking links per client address and minute. */
      requestsPerMinute: env.TRACKING_REQUESTS_PER_MINUTE,
    },
    webhooks: {
      /** Absent: the Standard Webhooks schedule (WEBHOOK_RETRY_SCHEDULE_MS in the domain). */
      retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE_MS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      /** Deliveries in flight to one endpoint, per dispatcher process. */
      endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
    },
    dns: {
      /** Where sending domains' records are looked up (`host:port`); the machine's resolver when empty. */
      servers: env.DNS_SERVERS ?? [],
    },
    dev: {
      /**
       * The all-in-one's development stand-ins: local provider peers for channels without settings,
       * and the /dev routes beyond test environments' outbox (npm start turns it on).
       */
      enabled: env.DEV_MODE,
      mailCatcherPort: env.MAIL_CATCHER_PORT,
      bootstrapApiKey: env.BOOTSTRAP_API_KEY,
    },
    /** The web console the gateway serves at /console (its built assets; every call it makes is public API). */
    console: { enabled: env.CONSOLE_ENABLED },
    telemetry: { otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: env.OTEL_SERVICE_NAME },
  };
}

export type AppConfig = ReturnType<typeof toAppConfig>;

/** Reads and validates the environment; throws InvalidConfigError listing every problem. */
export function loadAppConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  return toAppConfig(parseConfig(envSchema, env, requirements));
}
