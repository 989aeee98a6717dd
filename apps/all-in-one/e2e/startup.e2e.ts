import { processExit, spawnService, startService, tempDir } from '@notify/testing';

describe('service start-up', () => {
  it('serves /status and reports ready on embedded defaults, then shuts down cleanly on SIGTERM', async () => {
    const data = await tempDir();
    const service = await startService('all-in-one', { DATA_DIR: data.path });
    try {
      const status = await fetch(`${service.baseUrl}/status`);
      expect(status.status).toBe(200);
      expect(await status.json()).toEqual({ message: 'ok' });
      const ready = await fetch(`${service.baseUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { status: string }).status).toBe('ok');
    } finally {
      expect(await service.stop()).toBe(0);
      await data.remove();
    }
  });

  it('exits non-zero naming the variable when the Kafka broker list is malformed', async () => {
    const { child, output } = spawnService('gateway', {
      BUS_DRIVER: 'kafka',
      KAFKA_BROKERS: 'localhost',
      PORT: '8080x',
    });
    expect(await processExit(child)).toBe(1);
    expect(output()).toContain(
      'KAFKA_BROKERS: expected a comma-separated list of host:port (got "localhost")',
    );
    expect(output()).toContain('PORT: expected an integer between 0 and 65535');
  });

  it('never prints a password from a connection URL it refuses', async () => {
    const { child, output } = spawnService('gateway', {
      STORE_DRIVER: 'mongodb',
      MONGODB_URI: 'http://notify:hunter2-secret@mongo:27017/notify',
    });
    expect(await processExit(child)).toBe(1);
    expect(output()).toContain('MONGODB_URI: expected a URL with scheme mongodb or mongodb+srv');
    expect(output()).toContain('notify:****@mongo');
    expect(output()).not.toContain('hunter2-secret');
  });

  it('refuses to run a standalone gateway without SECRETS_KEY (it seals provider credentials)', async () => {
    const { child, output } = spawnService('gateway', {
      BUS_DRIVER: 'kafka',
      KAFKA_BROKERS: '127.0.0.1:1',
      STORE_DRIVER: 'mongodb',
      MONGODB_URI: 'mongodb://127.0.0.1:1/notify',
      CACHE_DRIVER: 'redis',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    expect(await processExit(child)).toBe(1);
    expect(output()).toMatch(/SECRETS_KEY: required when the gateway service runs on its own/);
  });
});
