// `npm run bench [--smoke] [name...]`: runs each benchmark in its own process, one after another (a
// 2-core machine gives wrong figures when benchmarks overlap), prints their tables, and writes JSON
// to tools/bench/results/. `--smoke` (or BENCH_SMOKE=1) runs every benchmark, or the named ones, at
// tiny sizes through the same code paths (see smoke.ts): what CI runs. See tools/bench/README.md.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * `npm run bench` runs the service benchmarks, under ten minutes; the others (the backbone ones,
 * and `lookup`, which fills 10 M events) run by name.
 */
const DEFAULT = ['accept', 'e2e', 'cluster', 'stages', 'components'];

const BENCHES: Record<string, { file: string; needs: string }> = {
  accept: { file: 'service/accept.bench.ts', needs: 'nothing (all-in-one on embedded backends)' },
  e2e: {
    file: 'service/e2e.bench.ts',
    needs: 'nothing (all-in-one on embedded backends); also reports memory',
  },
  cluster: {
    file: 'service/cluster.bench.ts',
    needs: 'Kafka, MongoDB, Redis and ClickHouse from tools/infra (started if they are not running)',
  },
  lookup: { file: 'service/lookup.bench.ts', needs: 'nothing (all-in-one on embedded backends)' },
  stages: { file: 'stages/stages.bench.ts', needs: 'nothing (each stage on embedded backends)' },
  'scale-out': {
    file: 'service/scale-out.bench.ts',
    needs: 'Kafka, MongoDB and Redis from `npm run infra:up`',
  },
  inapp: {
    file: 'service/inapp.bench.ts',
    needs: 'Kafka, MongoDB and Redis from `npm run infra:up`; 10,000 WebSockets (ulimit -n above 10,100)',
  },
  webhooks: {
    file: 'service/webhooks.bench.ts',
    needs: 'Kafka, MongoDB and Redis from `npm run infra:up`',
  },
  components: { file: 'render/components.bench.ts', needs: 'nothing (in process)' },
  'event-log': { file: 'backbone/event-log.bench.ts', needs: 'nothing (embedded ClickHouse)' },
  insights: { file: 'backbone/insights.bench.ts', needs: 'nothing (embedded ClickHouse)' },
  bus: { file: 'backbone/bus.bench.ts', needs: 'Kafka from `npm run infra:up`' },
  scheduler: {
    file: 'backbone/scheduler.bench.ts',
    needs: 'nothing; Redis from `npm run infra:up` for its rows',
  },
};

const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const wanted = args.filter((arg) => arg !== '--smoke');
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}\n`,
  );
  process.exit(2);
}
const register = join(__dirname, '../testing/register-ts.cjs');
let failed = 0;
const started = Date.now();
/** A smoke run covers every benchmark: one that no run exercises is one that rots. */
const selected = wanted.length > 0 ? wanted : smoke ? Object.keys(BENCHES) : DEFAULT;
for (const [name, bench] of Object.entries(BENCHES)) {
  if (!selected.includes(name)) continue;
  process.stdout.write(`\n# ${name}${smoke ? ' (smoke run)' : ''} (needs ${bench.needs})\n`);
  const benchStarted = Date.now();
  const result = spawnSync(process.execPath, ['-r', register, join(__dirname, bench.file)], {
    stdio: 'inherit',
    env: { ...process.env, TZ: 'UTC', ...(smoke ? { BENCH_SMOKE: '1' } : {}) },
    timeout: (smoke ? 3 : 10) * 60_000,
  });
  const seconds = Math.round((Date.now() - benchStarted) / 1000);
  if (result.status !== 0) {
    failed++;
    process.stderr.write(`${name} failed (exit ${result.status ?? result.signal}) after ${seconds} s\n`);
  } else if (smoke) {
    process.stdout.write(`${name}: ran to the end in ${seconds} s\n`);
  }
}
process.stdout.write(
  `\nbench${smoke ? ' (smoke run)' : ''}: done in ${Math.round((Date.now() - started) / 1000)} s${failed ? `, ${failed} failed` : ''}\n`,
);
process.exit(failed ? 1 : 0);
