import type { INestApplication } from '@nestjs/common';
import { hashUserId, ProvisionTenantUseCase } from '@notify/gateway-feature';
import { type AppConfig, parseSecretKey } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the all-in-one keeps the JWT_SECRET it made, under DATA_DIR (read by `npm run member-token`). */
export const LOCAL_JWT_SECRET_FILE = 'jwt.secret';

/**
 * The all-in-one service makes its own SECRETS_KEY on first start, kept beside the
 * data it protects (DATA_DIR/secrets.key, mode 600). Standalone services never do: theirs must be
 * the same key everywhere, so the operator gives it.
 */
export async function withLocalSecretsKey(config: AppConfig): Promise<AppConfig> {
  if (config.secrets.key !== undefined) return config;
  const file = join(config.dataDir, 'secrets.key');
  if (!existsSync(file)) {
    await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return { ...config, secrets: { ...config.secrets, key: parseSecretKey(await readFile(file, 'utf8')) } };
}

/**
 * Likewise the all-in-one makes its own JWT_SECRET (DATA_DIR/jwt.secret, mode 600) when none is
 * given, so the console's sign-in links (whose sessions it signs) and `npm run member-token` (which
 * reads the file) work out of the box. Standalone services never do: every gateway must share it.
 */
export async function withLocalJwtSecret(config: AppConfig): Promise<AppConfig> {
  if (config.identity.jwt.secret !== undefined) return config;
  const file = join(config.dataDir, LOCAL_JWT_SECRET_FILE);
  if (!existsSync(file)) {
    await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    await writeFile(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  }
  const secret = (await readFile(file, 'utf8')).trim();
  return { ...config, identity: { ...config.identity, jwt: { ...config.identity.jwt, secret } } };
}

/**
 * Everything here shares one JavaScript thread; emails are composed, signed and written on a thread
 * of their own unless EMAIL_SEND_THREADS says otherwise (a standalone sender scales by replicas).
 */
export function withSendThreads(config: AppConfig): AppConfig {
  if (config.email.sendThreads !== undefined) return config;
  return { ...config, email: { ...config.email, sendThreads: 1 } };
}

export interface Installation {
  readonly envId: string;
  /** The API key, only when it was created now (a first start): it is shown once. */
  readonly newApiKey?: string;
  /** The example user's hashedUserId (secure mode), for the banner's browser example. */
  readonly exampleUserHash: string;
}

const EXAMPLE_USER = 'ann';

/**
 * The account, environment and API key of a fresh installation. A created key is kept in
 * DATA_DIR/api-key.txt (mode 600) so a newcomer finds it after a restart; BOOTSTRAP_API_KEY fixes
 * it instead (scripts, tests).
 */
export async function bootstrap(app: INestApplication, config: AppConfig): Promise<Installation> {
  const given = config.dev.bootstrapApiKey;
  const provisioned = await app.get(ProvisionTenantUseCase).execute({ apiKey: given });
  if (provisioned.created && given === undefined && provisioned.apiKey !== undefined)
    await writeFile(join(config.dataDir, 'api-key.txt'), `${provisioned.apiKey}\n`, { mode: 0o600 });
  const environment = await app
    .get(AccountRepository)
    .getEnvironment(provisioned.accountId, provisioned.envId);
  return {
    envId: provisioned.envId,
    ...(provisioned.created && given === undefined ? { newApiKey: provisioned.apiKey } : {}),
    exampleUserHash: hashUserId(environment?.secret ?? '', EXAMPLE_USER),
  };
}

/**
 * What `npm start` prints. The API key appears on the first start only (terminal scrollback and CI
 * logs are not where secrets should live); later starts say where it is kept.
 */
/** The demo inbox page opened for the example user. */
const inboxUrl = (baseUrl: string, installation: Installation): string =>
  `${baseUrl}/dev/inbox?${new URLSearchParams({
    clientId: installation.envId,
    userId: EXAMPLE_USER,
    hashedUserId: installation.exampleUserHash,
  }).toString()}`;

export function banner(
  baseUrl: string,
  installation: Installation,
  config: AppConfig,
  served: readonly string[],
  localDns?: string,
): string {
  const keyFile = join(config.dataDir, 'api-key.txt');
  const keyLine =
    installation.newApiKey !== undefined
      ? `  API key   ${installation.newApiKey}   (shown once; also kept in ${keyFile})`
      : config.dev.bootstrapApiKey !== undefined
        ? '  API key   the one in BOOTSTRAP_API_KEY'
        : `  API key   in ${keyFile}  (KEY=$(cat ${keyFile}))`;
  const sms = JSON.stringify({ type: 'alert', to: '+14155552671', message: 'Hello from Notify' });
  const body = JSON.stringify({
    type: 'welcome',
    to: { id: EXAMPLE_USER, email: 'ann@example.com' },
    email: { subject: 'Hello {{name}}', html: '<p>Welcome, {{name}}!</p>' },
    parameters: { name: 'Ann' },
  });
  return [
    '',
    `  Notify is running at ${baseUrl}  (every service in one process; data in ${config.dataDir})`,
    '',
    keyLine,
    ...(config.console.enabled
      ? [`  Console   ${baseUrl}/console  (sign in with the API key, or by a link mailed to a member)`]
      : []),
    `  API docs  ${baseUrl}/docs`,
    !config.dev.enabled
      ? '  Dev mode  off: no local peers and no /dev routes; channels need provider settings (DEV_MODE=true for local peers)'
      : served.length > 0
        ? `  Outbox    ${baseUrl}/dev/outbox/{${served.join(',')}}  (served by local peers; nothing leaves this machine)`
        : '  Outbox    none: every channel has a real provider',
    ...(localDns !== undefined
      ? [
          `  DNS       ${localDns}  (local DNS peer verifying sending domains; load records with PUT /dev/dns/{name})`,
        ]
      : []),
    ...(served.includes('email')
      ? []
      : [
          config.email.smtpUrl === undefined
            ? "  Email     no relay: set SMTP_URL (or an environment's smtpUrl)"
            : `  Email     relayed through ${new URL(config.email.smtpUrl).host}`,
        ]),
    '',
    `  Send an email (with KEY=$(cat ${keyFile})):`,
    `    curl -s ${baseUrl}/send -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\`,
    `      -d '${body}'`,
    ...(served.includes('sms')
      ? [
          '  Send an SMS, then see what the local Twilio peer received:',
          `    curl -s ${baseUrl}/sms -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '${sms}'`,
          `    curl -s ${baseUrl}/dev/outbox/sms -H "Authorization: Bearer $KEY"`,
        ]
      : []),
    '  Read a delivery log (use the trackingId from the answer):',
    `    curl -s ${baseUrl}/logs/<trackingId> -H "Authorization: Bearer $KEY"`,
    '',
    `  Browser calls run in secure mode: they carry hashedUserId = base64(HMAC-SHA256(clientSecret, userId)),`,
    `  computed by your server (clientSecret: GET ${baseUrl}/environments). For user "${EXAMPLE_USER}":`,
    `    curl -s ${baseUrl}/${installation.envId}/users/${EXAMPLE_USER}/preferences \\`,
    `      -u '${installation.envId}:${EXAMPLE_USER}:${installation.exampleUserHash}'`,
    ...(config.dev.enabled
      ? [
          '',
          `  In-app inbox of "${EXAMPLE_USER}", live (open it, then send with "inapp": {"title": "Hi"} and to.id "${EXAMPLE_USER}"):`,
          `    ${inboxUrl(baseUrl, installation)}`,
        ]
      : []),
    '',
    '',
  ].join('\n');
}
