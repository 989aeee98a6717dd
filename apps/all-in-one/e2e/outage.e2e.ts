import {
  eventually,
  processExit,
  sleep,
  spawnService,
  type TcpProxy,
  tcpProxy,
  testBackends,
  uniqueName,
} from '@notify/testing';
import { Pingram } from 'pingram';
import { clusterTopology, type Topology } from './topologies';

type Log = { trackingId: string; email_delivered_at?: string; failed_at?: string; failed_internal?: string };

/**
 * MongoDB goes away (a failover, a partition) while sends are accepted: accepted sends must wait
 * for it and be delivered, not be dropped. If an outage outlasts CONSUMER_RETRY_WINDOW_MS, each send
 * given up on is logged as failed and an operator's replay delivers it afterwards.
 */
describe.each([
  ['shorter than the retry window', '600000'],
  ['longer than the retry window', '2000'],
] as const)('a MongoDB outage %s', (_name, window) => {
  let proxy: TcpProxy;
  let topology: Topology;
  let client: Pingram;
  const outlastsWindow = window === '2000';

  beforeAll(async () => {
    const mongo = new URL(testBackends.mongoUri);
    proxy = await tcpProxy({ host: mongo.hostname, port: Number(mongo.port) });
    topology = await clusterTopology({
      mongoUri: (database) => `mongodb://127.0.0.1:${proxy.port}/${database}`,
      env: { CONSUMER_RETRY_WINDOW_MS: window },
      services: ['gateway', 'recorder', 'router', 'sender-email'],
    });
    client = new Pingram({ apiKey: topology.apiKey, baseUrl: topology.baseUrl });
  }, 180_000);

  afterAll(async () => {
    await topology?.stop();
    await proxy?.close();
  }, 60_000);

  const logsOf = async (trackingIds: readonly string[]): Promise<Log[]> => {
    const response = await fetch(`${topology.baseUrl}/logs/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ trackingIds }),
    });
    return ((await response.json()) as { logs: Log[] }).logs;
  };

  it(
    outlastsWindow
      ? 'logs the sends as failed, and a replay delivers each once'
      : 'delivers every accepted send once, after',
    async () => {
      const type = uniqueName('outage');
      const send = (i: number) =>
        client.send({
          type,
          to: { id: `user-${i}`, email: `user-${i}@example.com` },
          email: { subject: `Outage ${i}`, html: `<p>${i}</p>` },
        });
      // Warm up: the gateway resolves (and caches) the API key while MongoDB is there.
      const warm = await send(-1);
      await eventually(
        () => expect(topology.mail.messages().some((m) => m.subject === 'Outage -1')).toBe(true),
        30_000,
      );

      await proxy.cut();
      // Accepted although MongoDB is gone: the gateway needs only the bus (and its cached key).
      const accepted = (await Promise.all(Array.from({ length: 20 }, (_, i) => send(i)))).map(
        (r) => r.trackingId,
      );
      if (outlastsWindow) {
        // Each send given up on is logged as failed, while MongoDB is still away.
        const failed = await eventually(async () => {
          const logs = await logsOf(accepted);
          expect(logs.filter((l) => l.failed_at !== undefined)).toHaveLength(20);
          return logs;
        }, 60_000);
        expect(failed[0]?.failed_internal).toMatch(/routing gave up: .*dead-letter topic/);
      } else {
        // Longer than the router's old retry budget (5 tries, 1.6 s), which dead-lettered silently.
        await sleep(8_000);
      }
      expect(topology.mail.messages().filter((m) => m.subject?.startsWith('Outage ')).length).toBe(1);
      await proxy.restore();

      if (outlastsWindow) {
        const replay = spawnService('replay-dead-letters', { ...topology.env, LOG_LEVEL: 'warn' }, [
          'send.requests',
        ]);
        expect(await processExit(replay.child)).toBe(0);
        expect(replay.output()).toContain('send.requests: 20 replayed');
      }

      const mine = () => topology.mail.messages().filter((m) => m.subject?.startsWith('Outage '));
      await eventually(() => expect(mine()).toHaveLength(21), 90_000);
      const perTrackingId = new Map<string, number>();
      for (const mail of mine()) {
        const id = mail.headers['x-notify-tracking-id'] ?? '';
        perTrackingId.set(id, (perTrackingId.get(id) ?? 0) + 1);
      }
      expect([...perTrackingId.values()].every((count) => count === 1)).toBe(true);
      expect(new Set(perTrackingId.keys())).toEqual(new Set([warm.trackingId, ...accepted]));
      await eventually(async () => {
        const logs = await logsOf(accepted);
        expect(logs.filter((l) => l.email_delivered_at !== undefined)).toHaveLength(20);
        if (!outlastsWindow) expect(logs.filter((l) => l.failed_at !== undefined)).toEqual([]);
      }, 60_000);
    },
    240_000,
  );
});
