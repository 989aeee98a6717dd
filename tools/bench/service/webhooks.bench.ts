// Webhook deliveries from one dispatcher process to a local receiver: N email_failed events
// (BENCH_WEBHOOK_EVENTS, 5,000 by default) published onto the events topic for an environment with
// one endpoint; measured from the first publish until the receiver has every delivery (fan-out,
// the durable delayed queue in Redis, signing, the POST). Baseline, in the same run: the same
// number of raw HTTP posts of the same body from this process to the same receiver, over
// keep-alive connections at the dispatcher's per-endpoint concurrency. Needs `npm run infra:up`.
import { createEventBus } from '@notify/bus';
import { type DeliveryEvent, Topics } from '@notify/domain';
import { provisionerFor } from '@notify/gateway-feature';
import { createLogger, loadAppConfig, SecretBox } from '@notify/platform';
import { MongoDocumentStore, WebhookEndpointRepository } from '@notify/store';
import { requireBackend, sleep, tempDir, WebhookReceiver } from '@notify/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { type Figure, report, runBench } from '../report';
import { sized } from '../smoke';
import { build, clusterEnv, startApp } from './harness';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? sized(5_000, 50));
const WARMUP = sized(200, 10);
const CONCURRENCY = 8;

async function untilReceived(receiver: WebhookReceiver, count: number): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (receiver.received.length < count && Date.now() < deadline) await sleep(10);
  if (receiver.received.length < count) throw new Error(`${receiver.received.length}/${count} received`);
}

/** Raw posts of `body`, CONCURRENCY at a time over keep-alive connections. */
async function rawPosts(url: string, body: string, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.once('end', resolve);
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next++;
        await one();
      }
    }),
  );
  agent.destroy();
}

async function main(): Promise<void> {
  await Promise.all([requireBackend('kafka'), requireBackend('mongo'), requireBackend('redis')]);
  build();
  const env = {
    ...clusterEnv('smtp://127.0.0.1:9'),
    EGRESS_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_ENDPOINT_CONCURRENCY: String(CONCURRENCY),
  };
  const config = loadAppConfig({ ...env, LOG_LEVEL: 'warn' });
  const receiver = new WebhookReceiver();
  await receiver.start();
  const store = new MongoDocumentStore(env.MONGODB_URI);
  const tenant = await provisionerFor(store, config).execute({
    apiKey: `notify_sk_${randomBytes(24).toString('base64url')}`,
  });
  const scope = { accountId: tenant.accountId, envId: tenant.envId };
  const now = new Date().toISOString();
  await new WebhookEndpointRepository(store).create(
    scope,
    {
      endpointId: 'bench',
      webhook: receiver.url,
      events: ['EMAIL_FAILED'],
      secret: new SecretBox(config.secrets.key).seal(
        `whsec_${randomBytes(24).toString('base64')}`,
        'webhook-secret',
      ),
      isDefault: false,
      createdAt: now,
      updatedAt: now,
    },
    10,
  );
  await store.close();

  const event = (i: number): DeliveryEvent => ({
    eventId: randomUUID(),
    ...scope,
    trackingId: randomUUID(),
    time: Date.now(),
    event: 'email_failed',
    userId: `user-${i}`,
    notificationId: 'bench',
    fields: { email_failed_code: 'PERMANENT_GENERAL_BOUNCE' },
  });
  const bus = createEventBus(config, createLogger({ level: 'warn', service: 'bench' }));
  await bus.ensureTopics([Topics.events, Topics.userEvents]);
  const publish = async (count: number) => {
    for (let start = 0; start < count; start += 500) {
      const chunk = [];
      for (let i = start; i < Math.min(count, start + 500); i++) {
        const value = event(i);
        chunk.push({ topic: Topics.events, key: value.trackingId, value });
      }
      await bus.publish(chunk);
    }
  };

  const data = await tempDir('notify-bench-webhooks-');
  const dispatcher = await startApp('webhook-dispatcher', { ...env, DATA_DIR: join(data.path, 'd') });
  try {
    // Warm-up: the group joined, the JIT and the connections warm.
    await publish(WARMUP);
    await untilReceived(receiver, WARMUP);
    const body = receiver.received[0]?.body ?? '{}';

    const rawStarted = Date.now();
    await rawPosts(receiver.url, body, EVENTS);
    const rawRate = EVENTS / ((Date.now() - rawStarted) / 1000);

    receiver.received.length = 0;
    const started = Date.now();
    await publish(EVENTS);
    await untilReceived(receiver, EVENTS);
    const rate = EVENTS / ((Date.now() - started) / 1000);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    const figures: Figure[] = [
      {
        name: 'webhook deliveries per second',
        value: rate,
        baseline: rawRate,
        unit: '/s',
        note: `event on the bus → signed POST received; baseline: raw keep-alive POSTs, ${CONCURRENCY} at a time`,
      },
      {
        name: 'distinct webhook-ids received',
        value: ids.size,
        baseline: EVENTS,
        unit: '',
        note: 'every event once',
      },
    ];
    report('webhooks', `${EVENTS} deliveries from one dispatcher to a local receiver`, figures);
  } finally {
    await dispatcher.stop();
    await bus.close();
    await receiver.stop();
    await data.remove();
  }
}

runBench(main);
