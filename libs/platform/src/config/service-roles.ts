import type { AppConfig } from './app.config';

export type Backend = 'bus' | 'store' | 'cache' | 'eventLog' | 'smtp' | 'secrets' | 'publicUrl';

/**
 * A service running on its own shares state with other processes only through real backends: the
 * embedded ones live inside one process. These are the configuration problems that rule out.
 */
export function standaloneProblems(service: string, config: AppConfig, needs: readonly Backend[]): string[] {
  const problems: string[] = [];
  const because = `the ${service} service runs on its own (use the all-in-one service for embedded backends)`;
  if (needs.includes('bus') && config.bus.driver !== 'kafka')
    problems.push(`BUS_DRIVER: must be kafka when ${because}`);
  if (needs.includes('store') && config.store.driver !== 'mongodb')
    problems.push(`STORE_DRIVER: must be mongodb when ${because}`);
  if (needs.includes('cache') && config.cache.driver !== 'redis')
    problems.push(`CACHE_DRIVER: must be redis when ${because}`);
  if (needs.includes('eventLog') && config.eventLog.url === undefined)
    problems.push(`CLICKHOUSE_URL: required when ${because}`);
  if (needs.includes('smtp') && config.email.smtpUrl === undefined)
    problems.push(`SMTP_URL: required when ${because}`);
  if (needs.includes('secrets') && config.secrets.key === undefined)
    problems.push(
      `SECRETS_KEY: required when ${because} (it seals provider credentials; make one with \`openssl rand -base64 32\`)`,
    );
  if (needs.includes('publicUrl') && config.http.publicUrl === undefined)
    problems.push(
      `PUBLIC_URL: required when ${because} (providers post delivery receipts to the gateway at this address)`,
    );
  return problems;
}
