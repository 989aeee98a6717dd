// Publish→consume throughput of the event bus, embedded (LMDB log) and Kafka, with many concurrent
// single-message publishes as the gateway makes them. Baselines in the same run: for Kafka, plain
// kafkajs (one idempotent `send` per message, no batching queue); for the embedded bus, the raw
// LMDB writes it makes (one transaction per publish call, same durability setting), no consumer.
import { EmbeddedBus, type EventBus, KafkaBus } from '@notify/bus';
import { openLmdb } from '@notify/platform';
import { requireBackend, tempDir, testBackends, testLogger, uniqueName } from '@notify/testing';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { z } from 'zod';
import { report, runBench } from '../report';
import { sized } from '../smoke';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? sized(20_000, 200));
const CONCURRENCY = 64;
const payload = (i: number) => ({
  trackingId: `t-${i}`,
  type: 'welcome',
  to: { id: `u${i % 1000}`, email: 'user@example.com' },
});
const Payload = z.object({
  trackingId: z.string(),
  type: z.string(),
  to: z.object({ id: z.string(), email: z.string() }),
});

/** Runs `task(i)` for i in [0, n) with `concurrency` in flight; resolves to the elapsed seconds. */
async function concurrently(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

async function throughput(bus: EventBus, topic: string): Promise<{ publish: number; endToEnd: number }> {
  await bus.ensureTopics([topic]);
  let consumed = 0;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const subscription = await bus.subscribe({
    group: 'bench',
    topic,
    schema: Payload,
    handle: async () => {
      if (++consumed === MESSAGES) done();
    },
  });
  const started = performance.now();
  const publishSeconds = await concurrently(MESSAGES, CONCURRENCY, (i) =>
    bus.publish([{ topic, key: `u${i % 1000}`, value: payload(i) }]),
  );
  await finished;
  const endToEnd = MESSAGES / ((performance.now() - started) / 1000);
  await subscription.close();
  return { publish: MESSAGES / publishSeconds, endToEnd };
}

async function embedded() {
  const dir = await tempDir('notify-bench-bus-');
  const raw = openLmdb(`${dir.path}/raw`, { maxDbs: 1 });
  const baselineSeconds = await concurrently(MESSAGES, CONCURRENCY, async (i) => {
    await raw.transaction(
      () =>
        void raw.put(['t', i % 6, i], {
          k: `u${i % 1000}`,
          v: JSON.stringify(payload(i)),
          h: {},
          t: Date.now(),
        }),
    );
  });
  await raw.close();
  const bus = new EmbeddedBus({ path: `${dir.path}/bus`, partitions: 6, logger: testLogger() });
  const result = await throughput(bus, 'bench');
  await bus.close();
  await dir.remove();
  return { ...result, baseline: MESSAGES / baselineSeconds };
}

async function kafka() {
  await requireBackend('kafka');
  const prefix = `${uniqueName('bench')}.`;
  const client = new Kafka({
    clientId: 'bench',
    brokers: testBackends.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  });
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: `${prefix}naive`, numPartitions: 6 }], waitForLeaders: true });
  await admin.disconnect();
  const producer = client.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const naive = Math.min(MESSAGES, 5_000);
  const baselineSeconds = await concurrently(naive, CONCURRENCY, async (i) => {
    await producer.send({
      topic: `${prefix}naive`,
      acks: -1,
      messages: [{ key: `u${i % 1000}`, value: JSON.stringify(payload(i)) }],
    });
  });
  await producer.disconnect();
  const bus = new KafkaBus({
    brokers: testBackends.kafkaBrokers,
    clientId: 'bench',
    topicPrefix: prefix,
    partitions: 6,
    replicationFactor: 1,
    logger: testLogger(),
  });
  const result = await throughput(bus, 'bench');
  await bus.close();
  return { ...result, baseline: naive / baselineSeconds };
}

async function main(): Promise<void> {
  const local = await embedded();
  const cluster = await kafka();
  report(
    'bus',
    `${MESSAGES.toLocaleString('en-US')} messages, ${CONCURRENCY} concurrent single-message publishes, 6 partitions`,
    [
      {
        name: 'embedded: publish (durable)',
        value: local.publish,
        unit: 'msg/s',
        baseline: local.baseline,
        note: 'baseline: raw LMDB transaction per publish',
      },
      { name: 'embedded: publish→consume', value: local.endToEnd, unit: 'msg/s' },
      {
        name: 'kafka: publish (acks=all)',
        value: cluster.publish,
        unit: 'msg/s',
        baseline: cluster.baseline,
        note: 'baseline: kafkajs send per message',
      },
      { name: 'kafka: publish→consume', value: cluster.endToEnd, unit: 'msg/s' },
    ],
  );
}

runBench(main);
