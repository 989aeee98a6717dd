import {
  eventually,
  processExit,
  type RunningService,
  spawnService,
  startService,
  tempDir,
} from '@notify/testing';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The TCP ports a process listens on (Linux: its socket descriptors matched with /proc/net/tcp{,6}). */
async function listeningPorts(pid: number): Promise<number[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined) inodes.add(inode);
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const row of rows) {
      const [, local, , state, , , , , , inode] = row.trim().split(/\s+/);
      // State 0A is LISTEN; the local address ends with the port in hex.
      if (state === '0A' && inode !== undefined && inodes.has(inode))
        ports.add(parseInt(local?.split(':').pop() ?? '', 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** The names of a process's threads (Linux: /proc/<pid>/task/<tid>/comm; one that ended meanwhile is skipped). */
async function threadNames(pid: number): Promise<string[]> {
  const tasks = await readdir(`/proc/${pid}/task`);
  const names = await Promise.all(
    tasks.map((tid) => readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8').catch(() => undefined)),
  );
  return names.flatMap((name) => (name === undefined ? [] : [name.trim()]));
}

const portOf = (service: RunningService) => Number(new URL(service.baseUrl).port);

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
      // Emails are composed and written on a thread of their own (EMAIL_SEND_THREADS unset: one).
      expect((await threadNames(service.child.pid ?? 0)).filter((name) => name.startsWith('smtp-'))).toEqual([
        'smtp-0',
      ]);
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

describe('development stand-ins (DEV_MODE: local peers and /dev routes)', () => {
  it('are off unless enabled: no /dev routes, no peers listening, said at start, and channels without providers fail clearly', async () => {
    const data = await tempDir();
    // As the image runs it: nothing sets DEV_MODE, and it listens on every interface.
    const service = await startService('all-in-one', {
      DATA_DIR: data.path,
      DEV_MODE: 'false',
      HOST: '0.0.0.0',
    });
    try {
      expect(service.output()).toContain('DEV_MODE is off: no local provider peers and no /dev routes');
      expect(await listeningPorts(service.child.pid ?? 0)).toEqual([portOf(service)]);
      const key = (await readFile(join(data.path, 'api-key.txt'), 'utf8')).trim();
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`${service.baseUrl}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        });
      expect((await fetch(`${service.baseUrl}/dev/inbox`)).status).toBe(404);
      expect((await fetch(`${service.baseUrl}/dev/inbox/client.js`)).status).toBe(404);
      for (const path of ['/dev/outbox/sms', '/dev/outbox/email', '/dev/mail'])
        expect((await call(path)).status).toBe(404);
      const inbound = await call('/dev/inbound/sms', {
        method: 'POST',
        body: JSON.stringify({ from: '+14155550100', text: 'hi' }),
      });
      expect(inbound.status).toBe(404);

      const sent = await call('/sms', {
        method: 'POST',
        body: JSON.stringify({ type: 'alert', to: '+14155552671', message: 'no provider' }),
      });
      const { trackingId } = (await sent.json()) as { trackingId: string };
      const log = await eventually(async () => {
        const { logs } = (await (await call(`/logs/${trackingId}`)).json()) as {
          logs: Record<string, unknown>[];
        };
        if (logs[0]?.sms_failed_at === undefined) throw new Error('not failed yet');
        return logs[0];
      }, 15_000);
      expect(log.sms_failed_internal).toContain('no Twilio account is configured');

      // Test environments keep their sandbox outbox in every topology.
      const created = await call('/environments', {
        method: 'POST',
        body: JSON.stringify({ title: 'ci', test: true }),
      });
      const { apiKey } = (await created.json()) as { apiKey: string };
      const sandbox = await fetch(`${service.baseUrl}/dev/outbox/sms`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(sandbox.status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
      await data.remove();
    }
  });

  it('are on for npm start: local peers listen, /dev/inbox is served, and the start says so', async () => {
    const data = await tempDir();
    const service = await startService('all-in-one', { DATA_DIR: data.path });
    try {
      expect(service.output()).toContain('DEV_MODE is on: local provider peers serve channels');
      expect((await listeningPorts(service.child.pid ?? 0)).length).toBeGreaterThan(4);
      expect((await fetch(`${service.baseUrl}/dev/inbox`)).status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
      await data.remove();
    }
  });
});
