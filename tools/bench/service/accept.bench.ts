// Accept throughput and latency of POST /send at increasing concurrency, against a bare Fastify
// server parsing the same body in the same run (the ratio is what the service's accept path
// costs). Three targets: the accept path alone (the gateway app's modules, nothing consuming), the
// all-in-one service (the rest of the pipeline runs in the same process meanwhile), and, when
// the local backends run, the multi-process topology (gateway, router and email sender over
// Kafka, MongoDB and Redis, all on this machine).
import { provisionerFor } from '@notify/gateway-feature';
import { loadAppConfig } from '@notify/platform';
import { MailCatcher } from '@notify/local-peer-mail';
import { MongoDocumentStore } from '@notify/store';
import { sleep, tempDir } from '@notify/testing';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { type Figure, goal, report, runBench } from '../report';
import { backendsUp, sized } from '../smoke';
import {
  build,
  clusterEnv,
  load,
  type MeasuredLoad,
  type Proc,
  SEND_BODY,
  startApp,
  startBaseline,
  startScript,
} from './harness';

const LEVELS = (process.env.BENCH_CONCURRENCY ?? sized('1,16,64,256', '16')).split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? sized(4, 1));
const KEY = `notify_sk_${randomBytes(24).toString('base64url')}`;

async function sweep(server: Proc, others: readonly Proc[] = []): Promise<MeasuredLoad[]> {
  const results: MeasuredLoad[] = [];
  for (const concurrency of LEVELS) {
    const result = await load(
      {
        url: `${server.baseUrl}/send`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: SEND_BODY,
        mode: 'closed',
        concurrency,
        durationMs: SECONDS * 1000,
      },
      [server, ...others].map((p) => p.child.pid ?? 0),
    );
    // A target that answered nothing but errors measured nothing.
    if (result.ok === 0) throw new Error(`${server.baseUrl}/send answered no 2xx at c=${concurrency}`);
    results.push(result);
  }
  return results;
}

/** The accept path alone: the gateway app's modules on embedded backends, nothing consuming. */
async function gatewayOnly(): Promise<MeasuredLoad[]> {
  const data = await tempDir('notify-bench-');
  const gateway = await startScript(join(__dirname, 'gateway-only.ts'), {
    DATA_DIR: data.path,
    BOOTSTRAP_API_KEY: KEY,
  });
  await sleep(sized(1_000, 100));
  const results = await sweep(gateway);
  await gateway.stop();
  await data.remove();
  return results;
}

async function allInOne(): Promise<MeasuredLoad[]> {
  const mail = new MailCatcher({ keep: 10 });
  await mail.start();
  const data = await tempDir('notify-bench-');
  const service = await startApp('all-in-one', {
    DATA_DIR: data.path,
    BOOTSTRAP_API_KEY: KEY,
    SMTP_URL: mail.url,
  });
  const results = await sweep(service);
  await service.stop();
  await mail.stop();
  await data.remove();
  return results;
}

/** Gateway, router and email sender as separate processes over the local Kafka, MongoDB and Redis. */
async function cluster(): Promise<MeasuredLoad[] | undefined> {
  if (!(await backendsUp(['kafka', 'mongo', 'redis']))) return undefined;
  const mail = new MailCatcher({ keep: 10 });
  await mail.start();
  const env = clusterEnv(mail.url);
  const store = new MongoDocumentStore(env.MONGODB_URI);
  await provisionerFor(store, loadAppConfig({})).execute({ apiKey: KEY });
  await store.close();
  const data = await tempDir('notify-bench-');
  const gateway = await startApp('gateway', { ...env, DATA_DIR: data.path });
  const workers = await Promise.all(['router', 'sender-email'].map((app) => startApp(app, env)));
  const results = await sweep(gateway, workers);
  await Promise.all([gateway, ...workers].map((p) => p.stop()));
  await mail.stop();
  await data.remove();
  return results;
}

const rps = (r: MeasuredLoad) => (r.ok / r.elapsedMs) * 1000;

function figuresOf(
  target: string,
  measured: readonly MeasuredLoad[],
  base: readonly MeasuredLoad[],
): Figure[] {
  return LEVELS.flatMap((concurrency, i) => {
    const m = measured[i];
    const b = base[i];
    if (m === undefined || b === undefined) return [];
    const failed = m.requests - m.ok;
    return [
      {
        name: `${target} c=${concurrency} throughput`,
        value: rps(m),
        unit: 'req/s',
        baseline: rps(b),
        note: failed ? `${failed} not 2xx` : '',
      },
      {
        name: `${target} c=${concurrency} latency p50`,
        value: m.latencyMs.p50,
        unit: 'ms',
        baseline: b.latencyMs.p50,
      },
      {
        name: `${target} c=${concurrency} latency p95`,
        value: m.latencyMs.p95,
        unit: 'ms',
        baseline: b.latencyMs.p95,
      },
      {
        name: `${target} c=${concurrency} latency p99`,
        value: m.latencyMs.p99,
        unit: 'ms',
        baseline: b.latencyMs.p99,
      },
      {
        name: `${target} c=${concurrency} CPU service`,
        value: m.serverCpu * 100,
        unit: '%',
        baseline: b.serverCpu * 100,
        note: `generator ${(m.generatorCpu * 100).toFixed(0)}% (with baseline ${(b.generatorCpu * 100).toFixed(0)}%)`,
      },
    ];
  });
}

/** The all-in-one at c=256 against bare Fastify: ≥ 0.5x its throughput with p99 ≤ 3x its p99. */
function goalAt256(measured: readonly MeasuredLoad[], base: readonly MeasuredLoad[]): Figure[] {
  const i = LEVELS.indexOf(256);
  const m = measured[i];
  const b = base[i];
  if (m === undefined || b === undefined) return [];
  const throughput = rps(m) / rps(b);
  const p99 = m.latencyMs.p99 / b.latencyMs.p99;
  return [
    {
      name: 'all-in-one c=256: throughput against bare Fastify',
      value: throughput,
      unit: 'x',
      note: `${goal(throughput >= 0.5, '≥ 0.50x')}; p99 ${p99.toFixed(2)}x (${goal(p99 <= 3, '≤ 3.00x')})`,
    },
  ];
}

async function main(): Promise<void> {
  build();
  const baseline = await startBaseline();
  const base = await sweep(baseline);
  await baseline.stop();
  const figures = [...figuresOf('accept path', await gatewayOnly(), base)];
  const single = await allInOne();
  figures.push(...figuresOf('all-in-one', single, base), ...goalAt256(single, base));
  const clustered = await cluster();
  if (clustered !== undefined) figures.push(...figuresOf('3 processes', clustered, base));
  report(
    'accept',
    `POST /send vs bare Fastify (baseline), ${SECONDS} s per level, closed loop; CPU % of the whole machine${clustered ? '' : ' (multi-process run skipped: start Kafka, MongoDB and Redis with npm run infra:up)'}`,
    figures,
  );
}

runBench(main);
