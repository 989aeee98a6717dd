import { freePort, npmStartEnv, sleep, testBackends, uniqueName } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadPlan, LoadResult } from './load-generator';

const ROOT = join(__dirname, '../../..');
const REGISTER = join(ROOT, 'tools/testing/register-ts.cjs');
const TICKS_PER_SECOND = 100;

/** Benchmarks run the compiled services (what `npm start` and the images run), built once. */
export function build(): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'tools/build/build.mjs')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('build failed');
}

export interface Proc {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  stop(): Promise<void>;
}

async function started(child: ChildProcess, baseUrl: string, readyPath: string, what: string): Promise<Proc> {
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited:\n${output}`);
    if (
      await fetch(`${baseUrl}${readyPath}`).then(
        (r) => r.status < 500,
        () => false,
      )
    ) {
      return {
        child,
        baseUrl,
        stop: () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${what} not ready:\n${output}`);
}

/** The Node flags `npm start` gives the all-in-one process, so a benchmark runs it as users do. */
function npmStartNodeArgs(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const flags = /node ((?:--\S+ )*)dist\/apps\/all-in-one\/src\/main\.js/.exec(pkg.scripts.start)?.[1];
  if (flags === undefined) throw new Error('package.json: `npm start` no longer runs the all-in-one app');
  return flags.split(' ').filter((flag) => flag.length > 0);
}

/**
 * A compiled app (`dist/apps/<app>/src/main.js`) on a free port, ready when /health/ready is; the
 * all-in-one app with the Node flags and variables of `npm start`.
 */
export async function startApp(
  app: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<Proc> {
  const port = String(await freePort());
  const flags = app === 'all-in-one' ? [...npmStartNodeArgs(), ...nodeArgs] : nodeArgs;
  const child = spawn(process.execPath, [...flags, join(ROOT, 'dist/apps', app, 'src/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ...(app === 'all-in-one' ? npmStartEnv() : {}),
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return started(child, `http://127.0.0.1:${port}`, '/health/ready', app);
}

/** A TypeScript service entry point (e.g. the gateway-only harness), ready when /health/ready is. */
export async function startScript(file: string, env: Record<string, string>): Promise<Proc> {
  const port = String(await freePort());
  const child = spawn(process.execPath, ['-r', REGISTER, file], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return started(child, `http://127.0.0.1:${port}`, '/health/ready', file);
}

/** The bare Fastify baseline. */
export async function startBaseline(): Promise<Proc> {
  const port = String(await freePort());
  const child = spawn(process.execPath, ['-r', REGISTER, join(__dirname, 'baseline-server.ts')], {
    env: { ...process.env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return started(child, `http://127.0.0.1:${port}`, '/nothing', 'baseline server');
}

/** CPU seconds a process has used so far (user + system), from /proc. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds used so far by each thread of a process, keyed by thread id ('main' for its own). */
export function threadCpu(pid: number): Map<string, { name: string; seconds: number }> {
  const threads = new Map<string, { name: string; seconds: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      threads.set(tid, { name: tid === String(pid) ? 'main' : name, seconds });
    } catch {
      // the thread ended between listing and reading
    }
  }
  return threads;
}

/** CPU per thread name between two snapshots (threads of one name summed). */
export function threadDelta(
  before: Map<string, { name: string; seconds: number }>,
  after: Map<string, { name: string; seconds: number }>,
): Record<string, number> {
  const byName: Record<string, number> = {};
  for (const [tid, { name, seconds }] of after) {
    const spent = seconds - (before.get(tid)?.seconds ?? 0);
    if (spent > 0) byName[name] = (byName[name] ?? 0) + spent;
  }
  return byName;
}

/** A process and every descendant (the children of each of its threads), from /proc. */
function processTree(pid: number): number[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tids.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return [pid, ...children.flatMap(processTree)];
}

/** CPU seconds of a process and its descendants (a backend started through a wrapper). */
export function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, each) => {
    try {
      return sum + cpuSeconds(each);
    } catch {
      return sum; // exited meanwhile
    }
  }, 0);
}

/**
 * A process's resident memory: `total` (VmRSS) and its anonymous part (JS heap and native
 * allocations). The rest is file-backed: pages of LMDB's and ClickHouse's memory-mapped files,
 * which the kernel reclaims under pressure like any page cache.
 */
export interface Rss {
  readonly total: number;
  readonly anon: number;
}

export function rss(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n');
  const kib = (field: string) =>
    Number(/(\d+)/.exec(status.find((l) => l.startsWith(`${field}:`)) ?? '')?.[1] ?? 0) * 1024;
  return { total: kib('VmRSS'), anon: kib('RssAnon') };
}

export const maxRss = (a: Rss, b: Rss): Rss => ({
  total: Math.max(a.total, b.total),
  anon: Math.max(a.anon, b.anon),
});

export interface MeasuredLoad extends LoadResult {
  /** Share of the machine's CPU (all cores = 100%) used by the generator and by the server. */
  readonly generatorCpu: number;
  readonly serverCpu: number;
}

const CORES = Number(readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? 1);

/** Runs a TypeScript script of the benchmarks as its own process with `plan` as its argument; resolves to the JSON it prints. */
export async function runScript<T>(file: string, plan: unknown): Promise<T> {
  const child = spawn(process.execPath, ['-r', REGISTER, file, JSON.stringify(plan)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close', not 'exit': stdout is read to its end.
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`${file} exited with ${code}`);
  return JSON.parse(output) as T;
}

/** Runs the load generator as its own process against a server, measuring both processes' CPU. */
export async function load(plan: LoadPlan, serverPids: readonly number[]): Promise<MeasuredLoad> {
  const serverBefore = serverPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const result = await runScript<LoadResult>(join(__dirname, 'load-generator.ts'), plan);
  const serverCpu = serverPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - serverBefore;
  const seconds = result.elapsedMs / 1000;
  return {
    ...result,
    generatorCpu: result.cpuSeconds / seconds / CORES,
    serverCpu: serverCpu / seconds / CORES,
  };
}

/** The send every service benchmark uses: inline email with a merge tag, a new user each time. */
export const SEND_BODY = JSON.stringify({
  type: 'bench',
  to: { id: 'user-{{i}}', email: 'user-{{i}}@example.com' },
  email: { subject: 'Hello {{name}}', html: '<p>Hello {{name}}, this is message {{i}}.</p>' },
  parameters: { name: 'Bench' },
});

/**
 * The environment of services over the local Kafka, MongoDB and Redis, isolated under a fresh name
 * (topic prefix, database, key prefix), sending email to `smtpUrl`.
 */
export function clusterEnv(smtpUrl: string): Record<string, string> & { MONGODB_URI: string } {
  const name = uniqueName('bench');
  const mongo = new URL(testBackends.mongoUri);
  mongo.pathname = `/${name.replace(/-/g, '_')}`;
  return {
    BUS_DRIVER: 'kafka',
    KAFKA_BROKERS: testBackends.kafkaBrokers.join(','),
    KAFKA_TOPIC_PREFIX: `${name}.`,
    STORE_DRIVER: 'mongodb',
    MONGODB_URI: mongo.toString(),
    CACHE_DRIVER: 'redis',
    REDIS_URL: testBackends.redisUrl,
    REDIS_KEY_PREFIX: `${name}:`,
    SMTP_URL: smtpUrl,
    SECRETS_KEY: randomBytes(32).toString('base64'),
  };
}
