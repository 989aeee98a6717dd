import type { AppConfig, Logger } from '@notify/platform';
import { join } from 'node:path';
import type { CoordinationStore } from './cache.port';
import { EmbeddedCoordinationStore } from './embedded/embedded.coordination';
import { RedisCoordinationStore } from './redis/redis.coordination';

/** The adapter the configuration selects: Redis shared by replicas, LMDB in the all-in-one process. */
export function createCoordinationStore(config: AppConfig, logger: Logger): CoordinationStore {
  const { cache } = config;
  if (cache.driver === 'embedded') {
    return new EmbeddedCoordinationStore({ path: join(config.dataDir, 'coordination'), logger });
  }
  return new RedisCoordinationStore({ url: cache.url, keyPrefix: cache.keyPrefix, logger });
}
