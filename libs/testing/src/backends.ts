import { existsSync } from 'node:fs';
import { connect } from 'node:net';

/**
 * Where the integration suites find the real backends: the same variables the services read,
 * defaulting to the loopback ports `npm run infra:up` uses (tools/infra/README.md).
 */
export const testBackends = {
  kafkaBrokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(','),
  mongoUri: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27018/notify_test',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6380',
  clickhouseUrl: process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:18123',
  stripeApiUrl: process.env.STRIPE_API_URL ?? 'http://127.0.0.1:12111',
};

type Backend = 'kafka' | 'mongo' | 'redis' | 'clickhouse' | 'stripe-mock';

const VARIABLE: Record<Backend, string> = {
  kafka: 'KAFKA_BROKERS',
  mongo: 'MONGODB_URI',
  redis: 'REDIS_URL',
  clickhouse: 'CLICKHOUSE_URL',
  'stripe-mock': 'STRIPE_API_URL',
};

function addressOf(name: Backend): string | undefined {
  if (name === 'kafka') return testBackends.kafkaBrokers[0];
  const urls = {
    mongo: testBackends.mongoUri,
    redis: testBackends.redisUrl,
    clickhouse: testBackends.clickhouseUrl,
    'stripe-mock': testBackends.stripeApiUrl,
  };
  return new URL(urls[name]).host;
}

function reachable(host: string, port: number, timeoutMs = 1_500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Fails the suite (never skips it) when a backend is down, with the command that starts it.
 * Call from `beforeAll`.
 */
export async function requireBackend(name: Backend): Promise<void> {
  const address = addressOf(name);
  const [host, port] = (address ?? '').split(':');
  if (host === undefined || port === undefined || !(await reachable(host, Number(port)))) {
    throw new Error(
      `${name} is not reachable at ${address ?? '(unset)'}. Start the test backends with \`npm run infra:up\` ` +
        `(or point ${VARIABLE[name]} at one).`,
    );
  }
}

/** A name unique to this test run, for topics, databases and key prefixes that must not collide. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Debian's Chromium for the browser tests (CHROMIUM_PATH overrides); fails the suite, never skips
 * it, when it is missing, with the command that installs it.
 */
export function chromiumPath(): string {
  const candidates = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((path) => path !== undefined && path !== '' && existsSync(path));
  if (found === undefined)
    throw new Error(
      'Chromium is not installed. Install it with `bash tools/infra/infra.sh install chromium`.',
    );
  return found;
}
