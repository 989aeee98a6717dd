import { tempDir, testBackends, testLogger, uniqueName } from '@notify/testing';
import { EmbeddedBus } from '../embedded/embedded.bus';
import type { EventBus } from '../event-bus.port';
import { KafkaBus, type KafkaBusOptions } from '../kafka/kafka.bus';
import { loadAppConfig } from '@notify/platform';

/** What a crash fixture needs to open the same bus as the test that spawned it. */
export interface BusLocation {
  readonly adapter: 'embedded' | 'kafka';
  /** Embedded: the data directory. Kafka: the topic/group prefix. */
  readonly where: string;
}

export const PARTITIONS = 3;
/** The broker's minimum: a killed consumer's partitions move on after this long. */
export const KAFKA_SESSION_TIMEOUT_MS = 6_000;

export function openBus(location: BusLocation): EventBus {
  const logger = testLogger('bus');
  if (location.adapter === 'embedded') {
    return new EmbeddedBus({ path: location.where, partitions: PARTITIONS, logger, pruneIntervalMs: 200 });
  }
  return new KafkaBus({
    brokers: testBackends.kafkaBrokers,
    clientId: 'contract',
    topicPrefix: location.where,
    partitions: PARTITIONS,
    replicationFactor: 1,
    logger,
    sessionTimeoutMs: KAFKA_SESSION_TIMEOUT_MS,
    fetch: defaultFetch(),
  });
}

/** The fetch batching a deployment runs with by default (KAFKA_FETCH_* unset). */
function defaultFetch(): KafkaBusOptions['fetch'] {
  const { bus } = loadAppConfig({ BUS_DRIVER: 'kafka', KAFKA_BROKERS: testBackends.kafkaBrokers.join(',') });
  return bus.driver === 'kafka' ? bus.fetch : undefined;
}

export async function newLocation(
  adapter: BusLocation['adapter'],
): Promise<BusLocation & { cleanup(): Promise<void> }> {
  if (adapter === 'embedded') {
    const dir = await tempDir('notify-bus-');
    return { adapter, where: dir.path, cleanup: dir.remove };
  }
  return { adapter, where: `${uniqueName('ct')}.`, cleanup: () => Promise.resolve() };
}
