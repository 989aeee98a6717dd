import type { AppConfig, Logger } from '@notify/platform';
import { join } from 'node:path';
import { EmbeddedBus } from './embedded/embedded.bus';
import type { EventBus } from './event-bus.port';
import { KafkaBus } from './kafka/kafka.bus';

/** The adapter the configuration selects: Kafka in a cluster, the embedded log on a laptop. */
export function createEventBus(config: AppConfig, logger: Logger): EventBus {
  const { bus } = config;
  if (bus.driver === 'embedded') {
    return new EmbeddedBus({ path: join(config.dataDir, 'bus'), partitions: 6, logger });
  }
  return new KafkaBus({
    brokers: bus.brokers,
    clientId: bus.clientId,
    topicPrefix: bus.topicPrefix,
    partitions: bus.partitions,
    replicationFactor: bus.replicationFactor,
    sessionTimeoutMs: bus.sessionTimeoutMs,
    fetch: bus.fetch,
    ssl: bus.ssl,
    sasl: bus.sasl,
    logger,
  });
}
