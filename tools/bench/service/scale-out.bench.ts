// Scale-out of a stage: 1, 2 and 4 processes in one consumer group on Kafka topics of 8 partitions
// (MongoDB and Redis behind them), each run draining the same number of messages published once
// every member has joined, after a warm-up:
// - email senders draining email jobs into the SMTP sink in this process (duplicates: emails the
//   sink received twice);
// - routers draining send requests into email jobs (done: jobs on the delivery topic, read from its
//   offsets; duplicates: jobs beyond one per send).
// Reports throughput, duplicates (must be 0) and CPU per message over the stage's processes; the
// baseline of each row is the single-process run. Needs `npm run infra:up`.
import { createEventBus, type OutgoingMessage } from '@notify/bus';
import { Topics } from '@notify/domain';
import { createLogger, loadAppConfig } from '@notify/platform';
import { MongoDocumentStore } from '@notify/store';
import { requireBackend, sleep, testBackends } from '@notify/testing';
import { Kafka, logLevel } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { type Figure, report, runBench } from '../report';
import { sized } from '../smoke';
import { emailJob, keyOf, provisionBenchTenant, sendRequested } from '../stages/stage-harness';
import { build, clusterEnv, cpuSeconds, type Proc, startApp } from './harness';
import { SmtpSink } from './smtp-sink';

const REPLICAS = (process.env.BENCH_REPLICAS ?? sized('1,2,4', '2')).split(',').map(Number);
const EMAILS = Number(process.env.BENCH_SCALE_EMAILS ?? sized(12_000, 200));
/** BENCH_SCALE_STAGES=router: only the routers (or `email`: only the senders). */
const STAGES = (process.env.BENCH_SCALE_STAGES ?? 'email,router').split(',');
const PARTITIONS = 8;
const WARMUP = sized(1_000, 20);

type StageName = 'email' | 'router';

interface Run {
  readonly stage: StageName;
  readonly replicas: number;
  readonly rate: number;
  readonly duplicates: number;
  readonly cpuUsPerMessage: number;
  readonly seconds: number;
}

/** How a stage is fed and how its finished messages are counted. */
interface Stage {
  readonly app: string;
  readonly topic: string;
  /** Message `i` for the stage's input topic. */
  make(tenant: Tenant, i: number): OutgoingMessage;
  /** Messages finished so far, repeats included, and distinct ones. */
  done(): Promise<{ total: number; distinct: number }>;
}

type Tenant = Awaited<ReturnType<typeof provisionBenchTenant>>;

function emailStage(sink: SmtpSink): Stage {
  return {
    app: 'sender-email',
    topic: Topics.delivery('EMAIL'),
    make: (tenant, i) => {
      const job = { ...emailJob(tenant, i), trackingId: randomUUID() };
      return { topic: Topics.delivery('EMAIL'), key: keyOf(tenant, job.userId), value: job };
    },
    done: () => Promise.resolve({ total: sink.deliveries, distinct: sink.arrivals.size }),
  };
}

/** Routers: a send is done when its email job is on the delivery topic (counted from its offsets). */
function routerStage(topicPrefix: string): Stage & { close(): Promise<void> } {
  const admin = new Kafka({ brokers: testBackends.kafkaBrokers, logLevel: logLevel.NOTHING }).admin();
  let sent = 0;
  return {
    app: 'router',
    topic: Topics.sendRequests,
    make: (tenant, i) => {
      sent++;
      const value = { ...sendRequested(tenant, i), trackingId: randomUUID() };
      return { topic: Topics.sendRequests, key: keyOf(tenant, value.send.userId), value };
    },
    done: async () => {
      await admin.connect();
      const offsets = await admin.fetchTopicOffsets(`${topicPrefix}${Topics.delivery('EMAIL')}`);
      const total = offsets.reduce((sum, o) => sum + Number(o.high), 0);
      // Each send makes one job: jobs beyond the sends published are repeats.
      return { total, distinct: Math.min(total, sent) };
    },
    close: () => admin.disconnect(),
  };
}

async function runWith(name: StageName, replicas: number, sink: SmtpSink, smtpUrl: string): Promise<Run> {
  const env = { ...clusterEnv(smtpUrl), KAFKA_PARTITIONS: String(PARTITIONS) };
  const config = loadAppConfig({ ...env, LOG_LEVEL: 'warn' });
  const store = new MongoDocumentStore(env.MONGODB_URI);
  const tenant = await provisionBenchTenant(store, config);
  await store.close();
  const bus = createEventBus(config, createLogger({ level: 'warn', service: 'bench' }));
  await bus.ensureTopics([Topics.sendRequests, Topics.delivery('EMAIL'), Topics.events]);
  const router = name === 'router' ? routerStage(config.bus.topicPrefix) : undefined;
  const stage = router ?? emailStage(sink);

  const members: Proc[] = [];
  for (let i = 0; i < replicas; i++) members.push(await startApp(stage.app, env));
  // Every member has joined the group and been given partitions before the first message arrives.
  await sleep(5_000 + replicas * 1_000);
  let next = 0;
  const publish = async (count: number) => {
    for (let start = 0; start < count; start += 500) {
      const chunk = [];
      for (let i = start; i < Math.min(count, start + 500); i++) chunk.push(stage.make(tenant, next++));
      await bus.publish(chunk);
    }
  };
  const reached = async (count: number) => {
    const deadline = Date.now() + 300_000;
    while ((await stage.done()).distinct < count && Date.now() < deadline) await sleep(20);
  };
  // Warm-up (JIT, pools, caches) outside the measurement, as a long-running replica would be.
  const before = (await stage.done()).distinct;
  await publish(WARMUP * replicas);
  await reached(before + WARMUP * replicas);
  const pids = members.map((p) => p.child.pid ?? 0);
  const cpuBefore = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const start = await stage.done();
  const started = Date.now();
  await publish(EMAILS);
  await reached(start.distinct + EMAILS);
  const seconds = (Date.now() - started) / 1000;
  const cpu = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
  // Late repeats (a redelivery after a rebalance) would arrive after the last first delivery.
  await sleep(2_000);
  const end = await stage.done();
  const finished = end.distinct - start.distinct;
  const duplicates = end.total - start.total - finished;
  await Promise.all(members.map((p) => p.stop()));
  await bus.close();
  await router?.close();
  if (finished < EMAILS) throw new Error(`${replicas} ${stage.app} finished ${finished}/${EMAILS}`);
  return {
    stage: name,
    replicas,
    rate: finished / seconds,
    duplicates,
    cpuUsPerMessage: (cpu / finished) * 1e6,
    seconds,
  };
}

const UNITS: Record<StageName, { one: string; many: string; unit: string }> = {
  email: { one: 'email sender', many: 'email senders', unit: 'emails/s' },
  router: { one: 'router', many: 'routers', unit: 'sends/s' },
};

async function main(): Promise<void> {
  await Promise.all([requireBackend('kafka'), requireBackend('mongo'), requireBackend('redis')]);
  build();
  const sink = new SmtpSink();
  const smtpUrl = await sink.start();
  const runs: Run[] = [];
  try {
    for (const stage of ['email', 'router'] as const) {
      if (!STAGES.includes(stage)) continue;
      for (const replicas of REPLICAS) runs.push(await runWith(stage, replicas, sink, smtpUrl));
    }
  } finally {
    await sink.stop();
  }
  const figures: Figure[] = runs.flatMap((run) => {
    const single = runs.find((r) => r.stage === run.stage);
    const names = UNITS[run.stage];
    const label = `${run.replicas} ${run.replicas > 1 ? names.many : names.one}`;
    return [
      {
        name: `${label}: throughput`,
        value: run.rate,
        unit: names.unit,
        baseline: single?.rate,
        note: `${EMAILS.toLocaleString('en-US')} in ${run.seconds.toFixed(1)} s; ${run.duplicates} duplicates`,
      },
      {
        name: `${label}: CPU per message`,
        value: run.cpuUsPerMessage,
        unit: 'µs',
        baseline: single?.cpuUsPerMessage,
        note: `over the ${names.many}`,
      },
    ];
  });
  report(
    'scale-out',
    `email senders, then routers, in one group on ${PARTITIONS}-partition Kafka topics (MongoDB, Redis, SMTP sink on this machine)`,
    figures,
  );
  const duplicated = runs.filter((run) => run.duplicates !== 0);
  if (duplicated.length > 0)
    throw new Error(
      `duplicates with ${duplicated.map((run) => `${run.replicas} ${UNITS[run.stage].many}`).join(', ')}`,
    );
}

runBench(main);
