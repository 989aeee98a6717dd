// `npm run bench [name...]`: runs each benchmark in its own process, one after another (a 2-core
// machine gives wrong figures when benchmarks overlap), prints their tables, and writes JSON to
// tools/bench/results/. See tools/bench/README.md.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** `npm run bench` runs the service benchmarks; the backbone ones (`event-log`, `bus`) run by name. */
const DEFAULT = ['accept', 'e2e', 'stages', 'lookup'];

const BENCHES: Record<string, { file: string; needs: string }> = {
  accept: { file: 'service/accept.bench.ts', needs: 'nothing (all-in-one on embedded backends)' },
  e2e: {
    file: 'service/e2e.bench.ts',
    needs: 'nothing (all-in-one on embedded backends); also reports memory',
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
  'event-log': { file: 'backbone/event-log.bench.ts', needs: 'nothing (embedded ClickHouse)' },
  bus: { file: 'backbone/bus.bench.ts', needs: 'Kafka from `npm run infra:up`' },
  scheduler: {
    file: 'backbone/scheduler.bench.ts',
    needs: 'nothing; Redis from `npm run infra:up` for its rows',
  },
};

const wanted = process.argv.slice(2);
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
for (const [name, bench] of Object.entries(BENCHES)) {
  if (!(wanted.length > 0 ? wanted : DEFAULT).includes(name)) continue;
  process.stdout.write(`\n# ${name} (needs ${bench.needs})\n`);
  const result = spawnSync(process.execPath, ['-r', register, join(__dirname, bench.file)], {
    stdio: 'inherit',
    env: { ...process.env, TZ: 'UTC' },
    timeout: 10 * 60_000,
  });
  if (result.status !== 0) {
    failed++;
    process.stderr.write(`${name} failed (exit ${result.status ?? result.signal})\n`);
  }
}
process.stdout.write(
  `\nbench: done in ${Math.round((Date.now() - started) / 1000)} s${failed ? `, ${failed} failed` : ''}\n`,
);
process.exit(failed ? 1 : 0);
