import { tempDir, testBackends, testLogger, uniqueName } from '@notify/testing';
import { Redis } from 'ioredis';
import type { CoordinationStore } from '../cache.port';
import { EmbeddedCoordinationStore } from '../embedded/embedded.coordination';
import { RedisCoordinationStore } from '../redis/redis.coordination';

export type CoordinationAdapter = 'embedded' | 'redis';

/** A fresh namespace for one test: a data directory, or a key prefix on the shared test Redis. */
export interface StoreLocation {
  readonly adapter: CoordinationAdapter;
  /** Embedded: the data directory. Redis: the key prefix. */
  readonly where: string;
  cleanup(): Promise<void>;
}

export async function newLocation(adapter: CoordinationAdapter): Promise<StoreLocation> {
  if (adapter === 'embedded') {
    const dir = await tempDir('notify-coordination-');
    return { adapter, where: dir.path, cleanup: dir.remove };
  }
  const prefix = `${uniqueName('ct')}:`;
  return { adapter, where: prefix, cleanup: () => deleteKeys(prefix) };
}

/** Each call is a new connection set (Redis) or a new process's view of the directory (embedded). */
export function openStore(location: StoreLocation): CoordinationStore {
  const logger = testLogger('coordination');
  if (location.adapter === 'embedded') {
    return new EmbeddedCoordinationStore({ path: location.where, logger });
  }
  return new RedisCoordinationStore({ url: testBackends.redisUrl, keyPrefix: location.where, logger });
}

/** Queue items and unexpired keys would otherwise pile up in the developer's test Redis. */
async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(testBackends.redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
