// Scale-out of one channel sender: 1, 2 and 4 email-sender processes in one consumer group on a
// Kafka topic of 8 partitions (MongoDB and Redis behind them, the SMTP sink in this process), each
// run draining the same number of email jobs published once every sender has joined. Reports
// throughput, duplicates at the SMTP peer (must be 0) and CPU per delivered email over the sender
// processes; the baseline of each row is the single-process run. Needs `npm run infra:up`.
import { createEventBus } from '@notify/bus';
import { Topics } from '@notify/domain';
import { createLogger, loadAppConfig } from '@notify/platform';
import { MongoDocumentStore } from '@notify/store';
import { requireBackend, sleep } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { type Figure, report, runBench } from '../report';
import { sized } from '../smoke';
import { emailJob, keyOf, provisionBenchTenant } from '../stages/stage-harness';
import { build, clusterEnv, cpuSeconds, type Proc, startApp } from './harness';
import { SmtpSink } from './smtp-sink';

const REPLICAS = (process.env.BENCH_REPLICAS ?? sized('1,2,4', '2')).split(',').map(Number);
const EMAILS = Number(process.env.BENCH_SCALE_EMAILS ?? sized(12_000, 200));
const PARTITIONS = 8;
const WARMUP = sized(1_000, 20);

interface Run {
  readonly replicas: number;
  readonly rate: number;
  readonly duplicates: number;
  readonly cpuUsPerEmail: number;
  readonly seconds: number;
}

async function runWith(replicas: number, sink: SmtpSink, smtpUrl: string): Promise<Run> {
  const env = { ...clusterEnv(smtpUrl), KAFKA_PARTITIONS: String(PARTITIONS) };
  const config = loadAppConfig({ ...env, LOG_LEVEL: 'warn' });
  const store = new MongoDocumentStore(env.MONGODB_URI);
  const tenant = await provisionBenchTenant(store, config);
  await store.close();
  const bus = createEventBus(config, createLogger({ level: 'warn', service: 'bench' }));
  await bus.ensureTopics([Topics.delivery('EMAIL'), Topics.events]);

  const senders: Proc[] = [];
  for (let i = 0; i < replicas; i++) senders.push(await startApp('sender-email', env));
  // Every member has joined the group and been given partitions before the first job arrives.
  await sleep(5_000 + replicas * 1_000);
  const publish = async (count: number) => {
    for (let start = 0; start < count; start += 500) {
      const chunk = [];
      for (let i = start; i < Math.min(count, start + 500); i++) {
        const job = { ...emailJob(tenant, i), trackingId: randomUUID() };
        chunk.push({ topic: Topics.delivery('EMAIL'), key: keyOf(tenant, job.userId), value: job });
      }
      await bus.publish(chunk);
    }
  };
  const arrived = async (count: number) => {
    const deadline = Date.now() + 300_000;
    while (sink.arrivals.size < count && Date.now() < deadline) await sleep(20);
  };
  // Warm-up (JIT, pools, caches) outside the measurement, as a long-running replica would be.
  await publish(WARMUP * replicas);
  await arrived(sink.arrivals.size + WARMUP * replicas);
  const pids = senders.map((p) => p.child.pid ?? 0);
  const cpuBefore = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const arrivedBefore = sink.arrivals.size;
  const deliveriesBefore = sink.deliveries;
  const started = Date.now();
  await publish(EMAILS);
  await arrived(arrivedBefore + EMAILS);
  const seconds = (Date.now() - started) / 1000;
  const delivered = sink.arrivals.size - arrivedBefore;
  const cpu = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
  // Late repeats (a redelivery after a rebalance) would arrive after the last first delivery.
  await sleep(2_000);
  const duplicates = sink.deliveries - deliveriesBefore - (sink.arrivals.size - arrivedBefore);
  await Promise.all(senders.map((p) => p.stop()));
  await bus.close();
  if (delivered < EMAILS) throw new Error(`${replicas} senders delivered ${delivered}/${EMAILS}`);
  return { replicas, rate: delivered / seconds, duplicates, cpuUsPerEmail: (cpu / delivered) * 1e6, seconds };
}

async function main(): Promise<void> {
  await Promise.all([requireBackend('kafka'), requireBackend('mongo'), requireBackend('redis')]);
  build();
  const sink = new SmtpSink();
  const smtpUrl = await sink.start();
  const runs: Run[] = [];
  try {
    for (const replicas of REPLICAS) runs.push(await runWith(replicas, sink, smtpUrl));
  } finally {
    await sink.stop();
  }
  const single = runs[0];
  const figures: Figure[] = runs.flatMap((run) => [
    {
      name: `${run.replicas} email sender${run.replicas > 1 ? 's' : ''}: throughput`,
      value: run.rate,
      unit: 'emails/s',
      baseline: single?.rate,
      note: `${EMAILS.toLocaleString('en-US')} in ${run.seconds.toFixed(1)} s; ${run.duplicates} duplicates`,
    },
    {
      name: `${run.replicas} email sender${run.replicas > 1 ? 's' : ''}: CPU per delivered email`,
      value: run.cpuUsPerEmail,
      unit: 'µs',
      baseline: single?.cpuUsPerEmail,
      note: 'over the sender processes',
    },
  ]);
  report(
    'scale-out',
    `email senders in one group on a ${PARTITIONS}-partition Kafka topic (MongoDB, Redis, SMTP sink on this machine)`,
    figures,
  );
  const duplicated = runs.filter((run) => run.duplicates !== 0);
  if (duplicated.length > 0)
    throw new Error(
      `duplicates at the SMTP peer with ${duplicated.map((run) => run.replicas).join(', ')} senders`,
    );
}

runBench(main);
