// One-shot schema migration (the Helm pre-upgrade Job): ClickHouse DDL and MongoDB indexes.
// Both steps are idempotent; services also apply them at start-up, this runs them before a rollout.
import 'reflect-metadata';
import { openEventLog } from '@notify/event-log';
import { createLogger, InvalidConfigError, loadAppConfig } from '@notify/platform';
import { Collections, createDocumentStore } from '@notify/store';

async function main(): Promise<void> {
  const config = loadAppConfig();
  const logger = createLogger({ level: config.log.level, service: 'migrate' });
  const store = createDocumentStore(config);
  for (const definition of Object.values(Collections)) store.collection(definition);
  await store.ensureIndexes();
  await store.close();
  logger.info('document store indexes ensured');
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
