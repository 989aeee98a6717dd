// One-shot schema migration and first provisioning (the Helm pre-install/pre-upgrade Job):
// MongoDB indexes, the first tenant and its API key, ClickHouse DDL. Every step is idempotent;
// services also apply the schema at start-up, this runs it before a rollout.
import 'reflect-metadata';
import { openEventLog } from '@notify/event-log';
import { provisionerFor } from '@notify/gateway-accounts';
import {
  type AppConfig,
  createLogger,
  InvalidConfigError,
  loadAppConfig,
  type Logger,
} from '@notify/platform';
import { Collections, createDocumentStore, type DocumentStore } from '@notify/store';

/**
 * The default account and environment with the key the operator gave in BOOTSTRAP_API_KEY, so a
 * fresh cluster answers its first call. A key already registered is left as it is (nothing is
 * duplicated or rotated). Without the variable nothing is made: a generated key would have to be
 * printed, and a Job's log is no place for a secret.
 */
async function provisionFirstTenant(store: DocumentStore, config: AppConfig, logger: Logger): Promise<void> {
  const apiKey = config.dev.bootstrapApiKey;
  if (apiKey === undefined) {
    logger.info(
      'BOOTSTRAP_API_KEY is not set: no tenant provisioned (set it and run again for a first API key)',
    );
    return;
  }
  const tenant = await provisionerFor(store, config).execute({ apiKey });
  logger.info(
    { accountId: tenant.accountId, envId: tenant.envId },
    tenant.apiKey === undefined ? 'bootstrap API key already registered' : 'bootstrap API key registered',
  );
}

async function main(): Promise<void> {
  const config = loadAppConfig();
  const logger = createLogger({ level: config.log.level, service: 'migrate' });
  const store = createDocumentStore(config);
  try {
    for (const definition of Object.values(Collections)) store.collection(definition);
    await store.ensureIndexes();
    logger.info('document store indexes ensured');
    await provisionFirstTenant(store, config, logger);
  } finally {
    await store.close();
  }
  const eventLog = await openEventLog(config);
  await eventLog.close();
  logger.info('event log migrated');
  logger.flush();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`migrate: ${error instanceof InvalidConfigError ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
