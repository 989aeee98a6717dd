import { AccountRepository, MongoDocumentStore } from '@notify/store';
import {
  processExit,
  requireBackend,
  spawnService,
  startService,
  tempDir,
  testBackends,
  uniqueName,
} from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/**
 * A fresh cluster as `helm install` makes it: the migrate Job runs with the chart's Secret, then
 * the standalone gateway starts, and the key given in BOOTSTRAP_API_KEY is the first caller's.
 */
describe('first call to a fresh cluster', () => {
  let data: { path: string; remove: () => Promise<void> };

  beforeAll(async () => {
    await Promise.all([
      requireBackend('kafka'),
      requireBackend('mongo'),
      requireBackend('redis'),
      requireBackend('clickhouse'),
    ]);
    data = await tempDir('notify-migrate-');
  });
  afterAll(() => data.remove());

  /** What the chart gives every pod (the Job included), over a database of its own. */
  const clusterEnv = (name: string) => {
    const mongo = new URL(testBackends.mongoUri);
    mongo.pathname = `/${uniqueName(name).replace(/-/g, '_')}`;
    return {
      BUS_DRIVER: 'kafka',
      KAFKA_BROKERS: testBackends.kafkaBrokers.join(','),
      KAFKA_TOPIC_PREFIX: `${uniqueName(name)}.`,
      STORE_DRIVER: 'mongodb',
      MONGODB_URI: mongo.toString(),
      CACHE_DRIVER: 'redis',
      REDIS_URL: testBackends.redisUrl,
      REDIS_KEY_PREFIX: `${uniqueName(name)}:`,
      CLICKHOUSE_URL: testBackends.clickhouseUrl,
      CLICKHOUSE_DATABASE: uniqueName(name).replace(/-/g, '_'),
      SECRETS_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'info',
    };
  };

  /** One run of the Job. */
  async function migrate(env: Record<string, string>, run: string): Promise<string> {
    const { child, output } = spawnService('migrate', { ...env, DATA_DIR: join(data.path, run) });
    const code = await processExit(child);
    if (code !== 0) throw new Error(`migrate exited with ${String(code)}:\n${output()}`);
    return output();
  }

  it('serves the key given in BOOTSTRAP_API_KEY after the Job, and a second run changes nothing', async () => {
    const apiKey = `notify_sk_${randomBytes(24).toString('base64url')}`;
    const env = { ...clusterEnv('first-call'), BOOTSTRAP_API_KEY: apiKey };
    const first = await migrate(env, 'migrate-1');
    expect(first).toContain('bootstrap API key registered');
    expect(first).not.toContain(apiKey);
    // The Job applied the delivery log's DDL on the ClickHouse server.
    const tables = await fetch(`${testBackends.clickhouseUrl}/?param_db=${env.CLICKHOUSE_DATABASE}`, {
      method: 'POST',
      body: 'SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name FORMAT JSONEachRow',
    });
    expect(await tables.text()).toContain('"name":"delivery_events"');

    const gateway = await startService('gateway', { ...env, DATA_DIR: join(data.path, 'gateway') });
    const get = (path: string) =>
      fetch(`${gateway.baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    try {
      const environments = await get('/environments');
      expect(environments.status).toBe(200);
      const [environment] = (await environments.json()) as { clientId: string }[];
      expect(environment?.clientId).toEqual(expect.any(String));

      // The Job runs again on every upgrade (here while the gateway serves): nothing duplicated or rotated.
      const second = await migrate(env, 'migrate-2');
      expect(second).toContain('bootstrap API key already registered');
      expect(await (await get('/environments')).json()).toEqual([
        expect.objectContaining({ clientId: environment?.clientId }),
      ]);
      const keys = (await (await get('/keys')).json()) as { keys: { name: string; revoked: boolean }[] };
      expect(keys.keys).toEqual([expect.objectContaining({ name: 'bootstrap key', revoked: false })]);
      const store = new MongoDocumentStore(env.MONGODB_URI);
      try {
        expect(await new AccountRepository(store).listEnvironments('default')).toHaveLength(1);
      } finally {
        await store.close();
      }
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });

  it('provisions nothing without BOOTSTRAP_API_KEY, and says how to get a first key', async () => {
    const env = clusterEnv('no-key');
    expect(await migrate(env, 'migrate-no-key')).toContain(
      'BOOTSTRAP_API_KEY is not set: no tenant provisioned',
    );
    const store = new MongoDocumentStore(env.MONGODB_URI);
    try {
      expect(await new AccountRepository(store).getAccount('default')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
