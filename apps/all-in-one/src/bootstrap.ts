import type { INestApplication } from '@nestjs/common';
import { ProvisionTenantUseCase } from '@notify/gateway-feature';
import type { AppConfig } from '@notify/platform';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The account, environment and API key of a fresh installation. The key is shown once to the
 * caller and kept in DATA_DIR/api-key.txt (mode 600) so a newcomer can find it after a restart;
 * BOOTSTRAP_API_KEY fixes it instead (scripts, tests).
 */
export async function bootstrapKey(app: INestApplication, config: AppConfig): Promise<string | undefined> {
  const given = config.dev.bootstrapApiKey;
  const provisioned = await app.get(ProvisionTenantUseCase).execute({ apiKey: given });
  const keyFile = join(config.dataDir, 'api-key.txt');
  if (provisioned?.created && given === undefined)
    await writeFile(keyFile, `${provisioned.apiKey}\n`, { mode: 0o600 });
  if (given !== undefined) return given;
  if (provisioned !== undefined) return provisioned.apiKey;
  return existsSync(keyFile) ? (await readFile(keyFile, 'utf8')).trim() : undefined;
}

export function banner(
  baseUrl: string,
  apiKey: string | undefined,
  config: AppConfig,
  catching: boolean,
): string {
  const key = apiKey ?? '<your API key>';
  const body = JSON.stringify({
    type: 'welcome',
    to: { id: 'ann', email: 'ann@example.com' },
    email: { subject: 'Hello {{name}}', html: '<p>Welcome, {{name}}!</p>' },
    parameters: { name: 'Ann' },
  });
  return [
    '',
    `  Notify is running at ${baseUrl}  (every service in one process; data in ${config.dataDir})`,
    '',
    `  API key   ${key}`,
    `  API docs  ${baseUrl}/docs`,
    catching
      ? `  Mailbox   ${baseUrl}/dev/mail  (emails are caught locally; nothing leaves this machine)`
      : `  Email     relayed through ${new URL(config.email.smtpUrl ?? 'smtp://unset').host}`,
    '',
    '  Send an email:',
    `    curl -s ${baseUrl}/send -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' \\`,
    `      -d '${body}'`,
    '  Read its delivery log (use the trackingId from the answer):',
    `    curl -s ${baseUrl}/logs/<trackingId> -H 'Authorization: Bearer ${key}'`,
    '',
    '',
  ].join('\n');
}
