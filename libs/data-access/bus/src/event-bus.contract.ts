import { eventually, processExit, range, requireBackend, sleep, uniqueName } from '@notify/testing';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { z } from 'zod';
import {
  BusHeaders,
  deadLetterTopic,
  type EventBus,
  type IncomingMessage,
  type Subscription,
} from './event-bus.port';
import { type BusLocation, newLocation, openBus } from './testing/bus-harness';

const Order = z.object({ id: z.number(), note: z.string().optional() });
type Order = z.infer<typeof Order>;
const AnyPayload = z.unknown();

const REGISTER = join(__dirname, '../../../../tools/testing/register-ts.cjs');
const FIXTURE = join(__dirname, 'testing/consumer.fixture.ts');

function spawnConsumer(location: BusLocation, topic: string, group: string, mode: 'hang' | 'stream') {
  const child = spawn(
    process.execPath,
    ['-r', REGISTER, FIXTURE, location.adapter, location.where, topic, group, mode],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const seen: number[] = [];
  let ready = false;
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) {
      if (line === 'ready') ready = true;
      const match = /^got (\d+)$/.exec(line);
      if (match) seen.push(Number(match[1]));
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return { child, seen, isReady: () => ready, stderr: () => stderr };
}

async function kill(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await processExit(child);
}

const orders = (ids: readonly number[], key: (id: number) => string = (id) => `k${id % 7}`) =>
  ids.map((id) => ({ topic: '', key: key(id), value: { id } }));

describe.each(['embedded', 'kafka'] as const)('EventBus contract (%s)', (adapter) => {
  let location: Awaited<ReturnType<typeof newLocation>>;
  let bus: EventBus;
  let topic: string;
  const subscriptions: Subscription[] = [];

  const publish = (messages: ReturnType<typeof orders>) =>
    bus.publish(messages.map((m) => ({ ...m, topic })));

  const collect = async <T>(
    group: string,
    schema: z.ZodType<T> = Order as unknown as z.ZodType<T>,
    from: string = topic,
  ) => {
    const received: IncomingMessage<T>[] = [];
    subscriptions.push(
      await bus.subscribe({ group, topic: from, schema, handle: async (m) => void received.push(m) }),
    );
    return received;
  };
  const deadLetters = (group: string) => collect(group, AnyPayload, deadLetterTopic(topic));

  beforeAll(async () => {
    if (adapter === 'kafka') await requireBackend('kafka');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    bus = openBus(location);
    topic = uniqueName('orders');
    await bus.ensureTopics([topic]);
  });

  afterEach(async () => {
    await Promise.all(subscriptions.splice(0).map((s) => s.close()));
    await bus.close();
    await location.cleanup();
  });

  it('delivers every message to a group once, with its key, payload and headers', async () => {
    await bus.publish([
      {
        topic,
        key: 'user-1',
        value: { id: 1, note: 'hello' },
        headers: { [BusHeaders.correlationId]: 'corr-1', trace: 't' },
      },
    ]);
    const received = await collect<Order>('g1');
    await eventually(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatchObject({
      topic,
      key: 'user-1',
      value: { id: 1, note: 'hello' },
      headers: { [BusHeaders.correlationId]: 'corr-1', trace: 't' },
    });
    await sleep(300);
    expect(received).toHaveLength(1);
  });

  it('keeps publish order per key while keys run concurrently', async () => {
    const perKey = new Map<string, number[]>();
    subscriptions.push(
      await bus.subscribe({
        group: 'ordered',
        topic,
        schema: Order,
        handle: async ({ key, value }) => {
          // Uneven handler times would reorder a key's messages if the bus did not serialise them.
          await sleep(value.id % 3);
          perKey.set(key, [...(perKey.get(key) ?? []), value.id]);
        },
      }),
    );
    for (let round = 0; round < 10; round++) {
      await publish(
        orders(
          range(30).map((i) => round * 30 + i),
          (id) => `k${id % 5}`,
        ),
      );
    }
    await eventually(() => expect([...perKey.values()].flat()).toHaveLength(300), 30_000);
    for (const ids of perKey.values()) expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('gives each group every message', async () => {
    const a = await collect<Order>('group-a');
    const b = await collect<Order>('group-b');
    await publish(orders(range(20)));
    await eventually(() => {
      expect(a.map((m) => m.value.id).sort((x, y) => x - y)).toEqual(range(20));
      expect(b.map((m) => m.value.id).sort((x, y) => x - y)).toEqual(range(20));
    });
  });

  it('shares partitions between members of a group, each message handled once', async () => {
    const first = await collect<Order>('shared');
    const second = await collect<Order>('shared');
    await sleep(adapter === 'kafka' ? 3_000 : 50);
    await publish(orders(range(60), (id) => `key-${id}`));
    await eventually(() => expect(first.length + second.length).toBe(60), 30_000);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    const ids = [...first, ...second].map((m) => m.value.id).sort((x, y) => x - y);
    expect(ids).toEqual(range(60));
  });

  it('retries a failing handler with backoff and delivers once it succeeds', async () => {
    let attempts = 0;
    subscriptions.push(
      await bus.subscribe({
        group: 'flaky',
        topic,
        schema: Order,
        retry: { maxAttempts: 4, initialBackoffMs: 10, maxBackoffMs: 50 },
        handle: async () => {
          attempts++;
          if (attempts < 3) throw new Error('transient');
        },
      }),
    );
    const dead = await deadLetters('dlt-watch-retry');
    await publish(orders([1]));
    await eventually(() => expect(attempts).toBe(3));
    await sleep(300);
    expect(attempts).toBe(3);
    expect(dead).toHaveLength(0);
  });

  it('dead-letters a message after N failures with the reason, and keeps consuming', async () => {
    const handled: number[] = [];
    subscriptions.push(
      await bus.subscribe({
        group: 'poisoned',
        topic,
        schema: Order,
        retry: { maxAttempts: 3, initialBackoffMs: 5, maxBackoffMs: 20 },
        handle: async ({ value }) => {
          if (value.id === 2) throw new Error('cannot handle order 2');
          handled.push(value.id);
        },
      }),
    );
    const dead = await deadLetters('dlt-reader');
    await publish(orders([1, 2, 3], () => 'same-key'));
    await eventually(() => expect(dead).toHaveLength(1), 30_000);
    await eventually(() => expect(handled).toEqual([1, 3]));
    expect(dead[0]?.value).toEqual({ id: 2 });
    expect(dead[0]?.headers[BusHeaders.deadLetterReason]).toContain('cannot handle order 2');
    expect(dead[0]?.headers[BusHeaders.deadLetterGroup]).toBe('poisoned');
    expect(dead[0]?.headers[BusHeaders.deadLetterAttempts]).toBe('3');
  });

  it('keeps retrying a backend outage (transient error) past maxAttempts, for its window only', async () => {
    const outage = () =>
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { code: 'ECONNREFUSED' });
    let attempts = 0;
    let recovered = false;
    const notices: { value: string; reason: string }[] = [];
    subscriptions.push(
      await bus.subscribe({
        group: 'outage',
        topic,
        schema: Order,
        retry: { maxAttempts: 2, initialBackoffMs: 5, maxBackoffMs: 20, transientWindowMs: 60_000 },
        onDeadLetter: async (letters) => void notices.push(...letters),
        handle: async ({ value }) => {
          if (value.id !== 1) throw outage();
          attempts++;
          if (!recovered) throw outage();
        },
      }),
    );
    await publish(orders([1], () => 'a'));
    await eventually(() => expect(attempts).toBeGreaterThan(5), 30_000);
    recovered = true;
    const settled = attempts;
    await eventually(() => expect(attempts).toBe(settled + 1), 30_000);
    expect(notices).toEqual([]);

    const shortWindow = await bus.subscribe({
      group: 'outage-short',
      topic,
      schema: Order,
      retry: { maxAttempts: 2, initialBackoffMs: 5, maxBackoffMs: 20, transientWindowMs: 200 },
      onDeadLetter: async (letters) => void notices.push(...letters),
      handle: async () => {
        throw outage();
      },
    });
    subscriptions.push(shortWindow);
    await eventually(() => expect(notices).toHaveLength(1), 30_000);
    expect(JSON.parse(notices[0]?.value ?? '{}')).toEqual({ id: 1 });
    expect(notices[0]?.reason).toMatch(/handler failed \d+ times: Error: connect ECONNREFUSED/);
  });

  it('replays dead letters onto their topic, once, without the dead-letter headers', async () => {
    let broken = true;
    const handled: IncomingMessage<Order>[] = [];
    subscriptions.push(
      await bus.subscribe({
        group: 'fixable',
        topic,
        schema: Order,
        retry: { maxAttempts: 1, initialBackoffMs: 5, maxBackoffMs: 5 },
        handle: async (message) => {
          if (broken && message.value.id % 2 === 0) throw new Error('bug, fixed later');
          handled.push(message);
        },
      }),
    );
    const dead = await deadLetters('dlt-watch-replay');
    await bus.publish(
      orders(range(6)).map((m) => ({
        ...m,
        topic,
        headers: { [BusHeaders.correlationId]: `c${m.value.id}` },
      })),
    );
    await eventually(() => expect(dead).toHaveLength(3), 30_000);
    await eventually(() => expect(handled.map((m) => m.value.id).sort()).toEqual([1, 3, 5]));

    broken = false;
    expect(await bus.replayDeadLetters(topic)).toBe(3);
    await eventually(() => expect(handled.map((m) => m.value.id).sort()).toEqual([0, 1, 2, 3, 4, 5]), 30_000);
    const replayed = handled.find((m) => m.value.id === 2);
    expect(replayed?.headers[BusHeaders.correlationId]).toBe('c2');
    expect(replayed?.headers[BusHeaders.replayedFrom]).toMatch(/^\d+\/\d+$/);
    expect(replayed?.headers[BusHeaders.deadLetterReason]).toBeUndefined();
    expect(await bus.replayDeadLetters(topic)).toBe(0);
  });

  it('dead-letters malformed payloads with the validation reason instead of crashing', async () => {
    const handled: number[] = [];
    subscriptions.push(
      await bus.subscribe({
        group: 'strict',
        topic,
        schema: Order,
        handle: async ({ value }) => void handled.push(value.id),
      }),
    );
    const dead = await deadLetters('dlt-reader');
    await bus.publish([
      { topic, key: 'k', value: { id: 'not-a-number' } },
      { topic, key: 'k', value: { id: 7 } },
    ]);
    await eventually(() => expect(handled).toEqual([7]), 30_000);
    await eventually(() => expect(dead).toHaveLength(1));
    expect(dead[0]?.value).toEqual({ id: 'not-a-number' });
    expect(dead[0]?.headers[BusHeaders.deadLetterReason]).toMatch(/failed validation: id:/);
  });

  it('hands whole batches to batch handlers and isolates a poison message by bisecting', async () => {
    const written: number[] = [];
    let calls = 0;
    subscriptions.push(
      await bus.subscribe({
        group: 'writer',
        topic,
        schema: Order,
        maxBatchSize: 100,
        retry: { maxAttempts: 2, initialBackoffMs: 5, maxBackoffMs: 10 },
        handleBatch: async (batch) => {
          calls++;
          if (batch.some((m) => m.value.id === 13)) throw new Error('row 13 rejected');
          written.push(...batch.map((m) => m.value.id));
        },
      }),
    );
    await publish(orders(range(40), () => 'one-partition'));
    await eventually(
      () => expect(written.sort((a, b) => a - b)).toEqual(range(40).filter((id) => id !== 13)),
      30_000,
    );
    expect(calls).toBeLessThan(40);
  });

  it('redelivers a message whose consumer was killed before committing', async () => {
    await publish(orders([42]));
    if (adapter === 'embedded') await bus.close();
    const consumer = spawnConsumer(location, topic, 'crashy', 'hang');
    await eventually(() => expect(consumer.seen).toEqual([42]), 30_000).catch((error: unknown) => {
      throw new Error(`${String(error)}\nfixture stderr: ${consumer.stderr()}`);
    });
    await kill(consumer.child);

    if (adapter === 'embedded') bus = openBus(location);
    const again = await collect<Order>('crashy');
    await eventually(() => expect(again.map((m) => m.value.id)).toEqual([42]), 45_000);
  });

  it('loses nothing when a consumer is killed mid-stream and another takes over', async () => {
    await publish(orders(range(300)));
    if (adapter === 'embedded') await bus.close();
    const consumer = spawnConsumer(location, topic, 'stream', 'stream');
    await eventually(() => expect(consumer.seen.length).toBeGreaterThanOrEqual(40), 30_000);
    await kill(consumer.child);

    if (adapter === 'embedded') bus = openBus(location);
    const resumed = await collect<Order>('stream');
    await eventually(() => {
      const union = new Set([...consumer.seen, ...resumed.map((m) => m.value.id)]);
      expect(union.size).toBe(300);
    }, 45_000);
  });

  it('loses nothing when a consumer is closed mid-stream and restarted', async () => {
    const seen = new Set<number>();
    const slowly = async ({ value }: IncomingMessage<Order>) => {
      await sleep(2);
      seen.add(value.id);
    };
    const first = await bus.subscribe({
      group: 'restart',
      topic,
      schema: Order,
      concurrency: 2,
      handle: slowly,
    });
    await publish(orders(range(200)));
    await eventually(() => expect(seen.size).toBeGreaterThanOrEqual(50), 30_000);
    await first.close();
    subscriptions.push(await bus.subscribe({ group: 'restart', topic, schema: Order, handle: slowly }));
    await eventually(() => expect(seen.size).toBe(200), 45_000);
  });

  it('drains in-flight work on close and commits it', async () => {
    let started = 0;
    let finished = 0;
    const subscription = await bus.subscribe({
      group: 'drain',
      topic,
      schema: Order,
      handle: async () => {
        started++;
        await sleep(300);
        finished++;
      },
    });
    await publish(orders([1]));
    await eventually(() => expect(started).toBe(1), 30_000);
    await subscription.close();
    expect(finished).toBe(1);

    const again = await collect<Order>('drain');
    await sleep(adapter === 'kafka' ? 4_000 : 300);
    expect(again).toHaveLength(0);
  });

  if (adapter === 'kafka') {
    it('replaces a consumer that kafkajs stopped for good after a crash, and delivers what follows once', async () => {
      const handled: number[] = [];
      let notices = 0;
      subscriptions.push(
        await bus.subscribe({
          group: 'crashing',
          topic,
          schema: Order,
          // A TypeError escaping eachBatch is an error kafkajs neither retries nor restarts after.
          onDeadLetter: async () => {
            notices++;
            if (notices === 1) throw new TypeError('a bug in the dead-letter hook');
          },
          handle: async ({ value }) => void handled.push(value.id),
        }),
      );
      await bus.publish([{ topic, key: 'k', value: { id: 'malformed' } }]);
      await eventually(() => expect(notices).toBe(1), 30_000);
      await eventually(() => expect(bus.probe()).rejects.toThrow(/consumer of crashing on .* crashed/));

      await publish(orders(range(10)));
      await eventually(() => expect([...handled].sort((a, b) => a - b)).toEqual(range(10)), 45_000);
      // The crashed batch was not committed: the fresh consumer dead-letters the malformed message.
      await eventually(() => expect(notices).toBe(2));
      await expect(bus.probe()).resolves.toBeUndefined();
      await sleep(2_000);
      expect(handled).toHaveLength(10);
      expect(notices).toBe(2);
    });
  }

  if (adapter === 'embedded') {
    it('keeps published messages across a restart of the process', async () => {
      await publish(orders(range(5)));
      await bus.close();
      bus = openBus(location);
      const received = await collect<Order>('late-joiner');
      await eventually(() => expect(received.map((m) => m.value.id).sort()).toEqual(range(5)));
    });

    it('refuses a second process on the same data directory', () => {
      expect(() => openBus(location)).toThrow(/in use by process/);
    });
  }
});
