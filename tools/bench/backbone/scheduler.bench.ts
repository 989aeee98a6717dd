// The scheduler's delayed queue with a million sends pending, on each coordination adapter
// (embedded LMDB, and Redis when `npm run infra:up` runs it): the memory the pending sends take,
// then 10,000 more coming due in the same second, released by the scheduler's own use case to the
// embedded bus (the scheduler's loop: claim up to 500, publish, ack; 100 ms between empty polls).
// Per send: the release lag (its publish time minus its due time), and the release rate. Baseline
// in the same run: the same loop over an in-memory queue (no store), publishing to the same bus.
import { EmbeddedBus, type EventBus, type OutgoingMessage } from '@notify/bus';
import {
  type CoordinationStore,
  EmbeddedCoordinationStore,
  RedisCoordinationStore,
  ScheduledSendsStore,
} from '@notify/cache';
import { Queues, type SendRequested, scheduledSendId } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { ReleaseDueSendsUseCase } from '@notify/scheduler-feature';
import { tempDir, testBackends, testLogger, uniqueName } from '@notify/testing';
import { systemClock } from '@notify/util';
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Figure, percentile, report, runBench } from '../report';
import { backendsUp, sized } from '../smoke';
import { sendRequested } from '../stages/stage-harness';

const PENDING = Number(process.env.BENCH_PENDING ?? sized(1_000_000, 1_000));
const DUE_TOGETHER = sized(10_000, 500);
const POLL_MS = 100;
/** How far ahead the sends due together are scheduled: time to schedule them all first. */
const LEAD_MS = sized(2_000, 300);
const tenant = { accountId: 'bench-account', envId: 'bench-env' };
const logger = testLogger('bench');

interface Release {
  readonly lags: number[];
  readonly seconds: number;
}

/** A bus that notes when each send was published (its release), then publishes it. */
function recording(bus: EventBus, released: Map<string, number>): EventBus {
  return Object.assign(Object.create(bus) as EventBus, {
    publish: async (messages: OutgoingMessage[]) => {
      await bus.publish(messages);
      const at = Date.now();
      for (const m of messages) released.set((m.value as SendRequested).trackingId, at);
    },
  });
}

const item = (i: number, dueAt: number) => {
  const request = sendRequested(tenant, i, Date.now());
  return {
    id: scheduledSendId(tenant.accountId, tenant.envId, request.trackingId),
    dueAt,
    payload: JSON.stringify(request),
  };
};

async function fill(store: CoordinationStore, count: number, from: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < count) {
        const i = next++;
        // Far ahead: pending, never due during the run.
        await store.schedule(Queues.scheduledSends, item(from + i, Date.now() + 86_400_000 + i));
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/** DUE_TOGETHER sends due within one second, LEAD_MS from now; `release` runs the loop until all are out. */
async function dueTogether(
  schedule: (i: number, dueAt: number) => Promise<void>,
  released: ReadonlyMap<string, number>,
  release: () => Promise<number>,
): Promise<Release> {
  const second = Math.ceil(Date.now() / 1000) * 1000 + LEAD_MS;
  const dueAt = new Map<string, number>();
  for (let i = 0; i < DUE_TOGETHER; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, DUE_TOGETHER - i) }, (_, k) => {
        const due = second + ((i + k) % 1000);
        dueAt.set(`00000000-0000-4000-8000-${String(PENDING + i + k).padStart(12, '0')}`, due);
        return schedule(PENDING + i + k, due);
      }),
    );
  }
  while (Date.now() < second) await sleep(5);
  while (released.size < DUE_TOGETHER) {
    if ((await release()) < 500) await sleep(POLL_MS);
  }
  const lags = [...released].map(([id, at]) => at - (dueAt.get(id) ?? at)).sort((a, b) => a - b);
  return { lags, seconds: (Math.max(...released.values()) - second) / 1000 };
}

function figures(name: string, measured: Release, baseline: Release): Figure[] {
  return [
    {
      name: `${name}: release lag p50`,
      value: percentile(measured.lags, 50),
      unit: 'ms',
      baseline: percentile(baseline.lags, 50),
    },
    {
      name: `${name}: release lag p99`,
      value: percentile(measured.lags, 99),
      unit: 'ms',
      baseline: percentile(baseline.lags, 99),
    },
    {
      name: `${name}: ${DUE_TOGETHER.toLocaleString('en-US')} due in one second, released`,
      value: DUE_TOGETHER / measured.seconds,
      unit: 'sends/s',
      baseline: DUE_TOGETHER / baseline.seconds,
      note: `last one out ${measured.seconds.toFixed(2)} s after the second began`,
    },
  ];
}

async function measure(
  name: string,
  store: CoordinationStore,
  bus: EventBus,
  memory: () => Promise<number>,
): Promise<Figure[]> {
  const before = await memory();
  const fillRate = await fill(store, PENDING, 0);
  const after = await memory();
  const released = new Map<string, number>();
  const release = new ReleaseDueSendsUseCase(
    new ScheduledSendsStore(store, loadAppConfig({}).limits),
    recording(bus, released),
    logger,
    systemClock,
  );
  const measured = await dueTogether(
    (i, due) => store.schedule(Queues.scheduledSends, item(i, due)),
    released,
    () => release.execute(),
  );
  return [
    {
      name: `${name}: ${PENDING.toLocaleString('en-US')} pending, ${name.startsWith('Redis') ? 'used_memory' : 'data on disk (memory-mapped)'}`,
      value: (after - before) / 1024 / 1024,
      unit: 'MiB',
      note: `${Math.round((after - before) / PENDING)} bytes per pending send; filled at ${Math.round(fillRate).toLocaleString('en-US')}/s`,
    },
    ...figures(name, measured, await baseline(bus)),
  ];
}

/** The same loop over an in-memory queue: what releasing costs without a store. */
async function baseline(bus: EventBus): Promise<Release> {
  const queue: { dueAt: number; request: SendRequested }[] = [];
  const released = new Map<string, number>();
  const publishing = recording(bus, released);
  return dueTogether(
    async (i, due) => {
      queue.push({ dueAt: due, request: sendRequested(tenant, i, Date.now()) });
    },
    released,
    async () => {
      queue.sort((a, b) => a.dueAt - b.dueAt);
      const now = Date.now();
      const due = queue.filter((q) => q.dueAt <= now).slice(0, 500);
      queue.splice(0, due.length);
      await publishing.publish(
        due.map((q) => ({
          topic: 'send.requests',
          key: q.request.send.userId,
          value: { ...q.request, released: true },
        })),
      );
      return due.length;
    },
  );
}

const duBytes = (path: string) => Number(execFileSync('du', ['-sb', path]).toString().split('\t')[0]);

async function main(): Promise<void> {
  const busDir = await tempDir('notify-bench-bus-');
  const bus = new EmbeddedBus({ path: busDir.path, partitions: 6, logger });
  await bus.ensureTopics(['send.requests']);
  const rows: Figure[] = [];
  try {
    const dir = await tempDir('notify-bench-coordination-');
    const embedded = new EmbeddedCoordinationStore({ path: dir.path, logger });
    rows.push(...(await measure('embedded (LMDB)', embedded, bus, async () => duBytes(dir.path))));
    await embedded.close();
    await dir.remove();

    if (!(await backendsUp(['redis']))) {
      rows.push({ name: 'Redis: skipped', value: 0, unit: '', note: 'run `npm run infra:up` first' });
    } else {
      const prefix = `${uniqueName('bench')}:`;
      const store = new RedisCoordinationStore({ url: testBackends.redisUrl, keyPrefix: prefix, logger });
      const admin = new Redis(testBackends.redisUrl);
      const used = async () => Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1] ?? 0);
      try {
        rows.push(...(await measure('Redis', store, bus, used)));
      } finally {
        await admin.eval(
          "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end",
          0,
          `${prefix}*`,
        );
        admin.disconnect();
        await store.close();
      }
    }
  } finally {
    await bus.close();
    await busDir.remove();
  }
  report(
    'scheduler',
    `${PENDING.toLocaleString('en-US')} pending scheduled sends, then ${DUE_TOGETHER.toLocaleString('en-US')} due in one second`,
    rows,
  );
}

runBench(main);
