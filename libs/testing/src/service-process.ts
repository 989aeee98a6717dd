import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { sleep } from './helpers';

const ROOT = join(__dirname, '../../..');
const REGISTER = join(ROOT, 'tools/testing/register-ts.cjs');

export interface RunningService {
  readonly name: string;
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** SIGTERM and wait for exit; resolves to the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: the process dies without any cleanup. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * Every service a test process started and has not seen exit: killed after each test file (see
 * tools/jest/integration.setup.js), so a suite that fails half-way through starting a topology
 * leaves no service running (a live child's output pipes would also keep Jest from exiting).
 */
const running = new Set<ChildProcess>();

/** SIGKILLs every service still running (each test file's teardown, and the test process's exit). */
export function killRunningServices(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}
process.once('exit', killRunningServices);

/**
 * The variables `npm start` sets for the all-in-one process (`VAR=value node … all-in-one …` in
 * package.json), so tests run it as a newcomer does; a test overrides them through its own env.
 */
export function npmStartEnv(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const assignments = /((?:[A-Z_]+=\S+ )*)node (?:--\S+ )*dist\/apps\/all-in-one\/src\/main\.js/.exec(
    pkg.scripts.start,
  )?.[1];
  if (assignments === undefined)
    throw new Error('package.json: `npm start` no longer runs the all-in-one app');
  return Object.fromEntries(
    assignments
      .split(' ')
      .filter((assignment) => assignment.length > 0)
      .map((assignment) => {
        const at = assignment.indexOf('=');
        return [assignment.slice(0, at), assignment.slice(at + 1)];
      }),
  );
}

/**
 * Runs `apps/<app>/src/main.ts` from source as its own process (PORT=0 unless given); the
 * all-in-one app with the variables of `npm start`.
 */
export function spawnService(
  app: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['-r', REGISTER, join(ROOT, 'apps', app, 'src/main.ts'), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'info',
      ...(app === 'all-in-one' ? npmStartEnv() : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child, output: () => output };
}

/** A port free right now on loopback (the service binds it a moment later). */
/**
 * Ports handed out for services to bind later come from below the kernel's ephemeral range
 * (32768+ on Linux), in a block per test process: the kernel never gives them to a `listen(0)` in
 * the meantime (a peer, a service's own sandbox peer, another worker's client socket), which once
 * let a sender's health endpoint answer on the gateway's port.
 */
const PORT_BLOCK = 400;
const blockStart = 20_000 + (process.pid % 30) * PORT_BLOCK;
let offset = 0;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The next port of the block that is free now; the block is reused round-robin. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < PORT_BLOCK; tried++) {
    const port = blockStart + (offset++ % PORT_BLOCK);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in this test process's block ${blockStart}-${blockStart + PORT_BLOCK - 1}`);
}

/** Starts a service on a free port and resolves once `/health/ready` answers 200. */
export async function startService(
  app: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<RunningService> {
  const port = env.PORT ?? String(await freePort());
  const { child, output } = spawnService(app, { ...env, PORT: port });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}:\n${output()}`);
    const ready = await fetch(`${baseUrl}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) {
      return {
        name: app,
        baseUrl,
        child,
        output,
        stop: async () => {
          child.kill('SIGTERM');
          return exited(child);
        },
        kill: async () => {
          child.kill('SIGKILL');
          await exited(child);
        },
      };
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${app} was not ready within ${timeoutMs} ms:\n${output()}`);
}

export { exited as processExit };
