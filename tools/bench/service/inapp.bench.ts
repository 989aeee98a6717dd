// In-app WebSockets on one gateway process: N connected clients (BENCH_INAPP_CONNECTIONS, 10,000 by
// default), each a distinct user. Measures (1) a broadcast: one new item for every connected user,
// announced on the Redis fan-out channel at once, announce → received p50/p99 and the time until
// the last client has it; (2) single sends through the whole pipeline (POST /send → router →
// sender-inapp → gateway → socket) while the N clients are connected, send → received p50/p99;
// (3) memory per connection (the gateway's anonymous RSS growth over N connections). Baselines,
// measured in the same run: a bare `ws` server on the same Redis channel (broadcast, memory), and
// the same single sends with only a few clients connected. Needs `npm run infra:up`.
import { createCoordinationStore } from '@notify/cache';
import { INAPP_FANOUT_CHANNEL, type InAppFanout, inappItemOf } from '@notify/domain';
import { hashUserId } from '@notify/gateway-auth';
import { provisionerFor } from '@notify/gateway-feature';
import { createLogger, loadAppConfig } from '@notify/platform';
import { AccountRepository, MongoDocumentStore } from '@notify/store';
import { requireBackend, sleep, tempDir } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import WebSocket from 'ws';
import { type Figure, percentile, report, runBench } from '../report';
import { sized } from '../smoke';
import { build, clusterEnv, type Proc, rss, startApp, startScript } from './harness';

const CONNECTIONS = Number(process.env.BENCH_INAPP_CONNECTIONS ?? sized(10_000, 20));
const SINGLE_SENDS = Number(process.env.BENCH_INAPP_SENDS ?? sized(200, 5));
const IDLE_CLIENTS = 10;
/** Before reading a process's memory: time for freed sockets and buffers to go. */
const SETTLE_MS = sized(1_000, 100);

/** Every client's sockets, and each received item's latency (now − the `sentAt` it carries). */
class Clients {
  readonly sockets: WebSocket[] = [];
  readonly latencies = new Map<string, number>();

  async connect(baseUrl: string, envId: string, users: readonly string[], hashOf: (u: string) => string) {
    const url = (userId: string) =>
      `${baseUrl.replace(/^http/, 'ws')}/ws?${new URLSearchParams({ envId, userId, userIdHash: hashOf(userId) }).toString()}`;
    for (let start = 0; start < users.length; start += 250) {
      await Promise.all(
        users.slice(start, start + 250).map(
          (userId) =>
            new Promise<void>((resolve, reject) => {
              const socket = new WebSocket(url(userId), { perMessageDeflate: false });
              socket.on('message', (data) => {
                const at = Date.now();
                const frame = JSON.parse(String(data)) as {
                  payload: { notifications: { id: string; parameters?: { sentAt?: number } }[] };
                };
                for (const item of frame.payload.notifications)
                  this.latencies.set(item.id, at - Number(item.parameters?.sentAt ?? at));
              });
              socket.once('open', () => resolve());
              socket.once('error', reject);
              this.sockets.push(socket);
            }),
        ),
      );
    }
  }

  /** Each item's latency once all have arrived, in ascending order (as `percentile` takes them). */
  async waitFor(ids: readonly string[], timeoutMs = 120_000): Promise<number[]> {
    const deadline = Date.now() + timeoutMs;
    while (ids.some((id) => !this.latencies.has(id)) && Date.now() < deadline) await sleep(20);
    const missing = ids.filter((id) => !this.latencies.has(id)).length;
    if (missing > 0) throw new Error(`${missing} of ${ids.length} items never arrived`);
    return ids.map((id) => this.latencies.get(id) ?? 0).sort((a, b) => a - b);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.sockets.length = 0;
    await sleep(500);
  }
}

/** One new item for each user, announced on the fan-out channel as fast as Redis takes them. */
async function broadcast(
  publish: (message: string) => Promise<void>,
  scope: { accountId: string; envId: string },
  users: readonly string[],
  round: string,
): Promise<{ ids: string[]; started: number }> {
  const ids = users.map((_, i) => `${round}-${i}`);
  const started = Date.now();
  for (let start = 0; start < users.length; start += 1_000) {
    await Promise.all(
      users.slice(start, start + 1_000).map((userId, j) => {
        const now = Date.now();
        const item = inappItemOf(
          {
            ...scope,
            trackingId: ids[start + j] ?? '',
            receivedAt: now,
            test: false,
            notificationId: 'bench',
            userId,
            title: 'broadcast',
            parameters: { sentAt: now },
            retentionDays: 1,
          },
          now,
        );
        const fanout: InAppFanout = { ...scope, userId, item };
        return publish(JSON.stringify(fanout));
      }),
    );
  }
  return { ids, started };
}

async function singleSends(
  baseUrl: string,
  apiKey: string,
  clients: Clients,
  users: readonly string[],
): Promise<number[]> {
  const ids: string[] = [];
  for (let i = 0; i < SINGLE_SENDS; i++) {
    const userId = users[(i * 7919) % users.length] ?? '';
    const response = await fetch(`${baseUrl}/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'bench-inapp',
        to: { id: userId },
        inapp: { title: 'single' },
        parameters: { sentAt: Date.now() },
      }),
    });
    ids.push(((await response.json()) as { trackingId: string }).trackingId);
    await sleep(25);
  }
  return clients.waitFor(ids);
}

async function main(): Promise<void> {
  await Promise.all([requireBackend('kafka'), requireBackend('mongo'), requireBackend('redis')]);
  build();
  const env = clusterEnv('smtp://127.0.0.1:9');
  const config = loadAppConfig({ ...env, LOG_LEVEL: 'warn' });
  const apiKey = `notify_sk_${randomBytes(24).toString('base64url')}`;
  const store = new MongoDocumentStore(env.MONGODB_URI);
  const provisioned = await provisionerFor(store, config).execute({ apiKey });
  const environment = await new AccountRepository(store).findEnvironment(provisioned.envId);
  await store.close();
  const scope = { accountId: provisioned.accountId, envId: provisioned.envId };
  const hashOf = (userId: string) => hashUserId(environment?.secret ?? '', userId);
  const users = Array.from({ length: CONNECTIONS }, (_, i) => `user-${i}`);
  const coordination = createCoordinationStore(config, createLogger({ level: 'warn', service: 'bench' }));
  const publish = (message: string) => coordination.publish(INAPP_FANOUT_CHANNEL, message);
  const figures: Figure[] = [];

  // Baseline: the bare ws server on the same channel.
  const baseline = await startScript(join(__dirname, 'baseline-ws-server.ts'), env);
  const baselinePid = baseline.child.pid ?? 0;
  await sleep(SETTLE_MS);
  const baseIdle = rss(baselinePid).anon;
  let clients = new Clients();
  await clients.connect(baseline.baseUrl, scope.envId, users, hashOf);
  await sleep(2 * SETTLE_MS);
  const basePerConnection = (rss(baselinePid).anon - baseIdle) / CONNECTIONS;
  const baseRound = await broadcast(publish, scope, users, 'baseline');
  const baseLatencies = await clients.waitFor(baseRound.ids);
  const baseAll = Math.max(...baseRound.ids.map((id) => clients.latencies.get(id) ?? 0));
  await clients.close();
  await baseline.stop();

  // The service: gateway (hosting the recorder), router and the in-app sender.
  const data = await tempDir('notify-bench-inapp-');
  const services: Proc[] = [];
  try {
    const gateway = await startApp('gateway', { ...env, DATA_DIR: join(data.path, 'gateway') });
    services.push(gateway);
    services.push(await startApp('router', env), await startApp('sender-inapp', env));
    const gatewayPid = gateway.child.pid ?? 0;
    clients = new Clients();
    // Single sends with a few clients connected (warm-up first: JIT, pools, the type's creation).
    await clients.connect(gateway.baseUrl, scope.envId, users.slice(0, IDLE_CLIENTS), hashOf);
    await singleSends(gateway.baseUrl, apiKey, clients, users.slice(0, IDLE_CLIENTS));
    const idleSingles = await singleSends(gateway.baseUrl, apiKey, clients, users.slice(0, IDLE_CLIENTS));
    await sleep(SETTLE_MS);
    const idle = rss(gatewayPid).anon;
    const opening = Date.now();
    await clients.connect(gateway.baseUrl, scope.envId, users.slice(IDLE_CLIENTS), hashOf);
    const connectSeconds = (Date.now() - opening) / 1000;
    await sleep(2 * SETTLE_MS);
    const perConnection = (rss(gatewayPid).anon - idle) / (CONNECTIONS - IDLE_CLIENTS);
    const round = await broadcast(publish, scope, users, 'gateway');
    const latencies = await clients.waitFor(round.ids);
    const all = Math.max(...latencies);
    const loadedSingles = await singleSends(gateway.baseUrl, apiKey, clients, users);
    await clients.close();

    figures.push(
      {
        name: `broadcast to ${CONNECTIONS} sockets, p50`,
        value: percentile(latencies, 50),
        baseline: percentile(baseLatencies, 50),
        unit: 'ms',
        note: 'announce → received; baseline: bare ws server',
      },
      {
        name: `broadcast to ${CONNECTIONS} sockets, p99`,
        value: percentile(latencies, 99),
        baseline: percentile(baseLatencies, 99),
        unit: 'ms',
      },
      { name: 'broadcast, last socket served', value: all, baseline: baseAll, unit: 'ms' },
      {
        name: `single send → received, p50 (${CONNECTIONS} connected)`,
        value: percentile(loadedSingles, 50),
        baseline: percentile(idleSingles, 50),
        unit: 'ms',
        note: `POST /send through router and sender-inapp; baseline: ${IDLE_CLIENTS} connected`,
      },
      {
        name: `single send → received, p99 (${CONNECTIONS} connected)`,
        value: percentile(loadedSingles, 99),
        baseline: percentile(idleSingles, 99),
        unit: 'ms',
      },
      {
        name: 'memory per connection',
        value: perConnection / 1024,
        baseline: basePerConnection / 1024,
        unit: 'KiB',
        note: 'anonymous RSS growth / connections',
      },
      {
        name: 'connections opened per second',
        value: CONNECTIONS / connectSeconds,
        unit: '/s',
        note: 'each authenticated (HMAC, environment lookup)',
      },
    );
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await coordination.close();
    await data.remove();
  }
  report('inapp', `${CONNECTIONS} WebSocket clients on one gateway process`, figures);
}

runBench(main);
