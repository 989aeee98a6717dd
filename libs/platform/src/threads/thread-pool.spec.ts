import { join } from 'node:path';
import { createLogger } from '../logging/logger';
import type { EchoCall } from './echo-thread.fixture';
import { ThreadLostError, ThreadPool } from './thread-pool';

const REGISTER = join(__dirname, '../../../../tools/testing/register-ts.cjs');

const pool = (size: number, script = join(__dirname, 'echo-thread.fixture.ts')) =>
  new ThreadPool<EchoCall, unknown>({
    name: 'echo',
    script,
    size,
    maxHeapMb: 64,
    restartDelayMs: 100,
    logger: createLogger({ level: 'silent', service: 'test' }),
    execArgv: ['-r', REGISTER],
  });

describe('ThreadPool', () => {
  it('answers calls on its threads, with structured-cloned values', async () => {
    const threads = pool(1);
    await threads.ready();
    await expect(threads.probe()).resolves.toBeUndefined();
    const answer = (await threads.call({ op: 'echo', value: { n: 1, bytes: new Uint8Array([1, 2]) } })) as {
      value: unknown;
      threadId: number;
    };
    expect(answer.value).toEqual({ n: 1, bytes: new Uint8Array([1, 2]) });
    expect(answer.threadId).toBeGreaterThan(0);
    await threads.close();
  });

  it('rebuilds a thread’s error with its name, message, stack and primitive fields', async () => {
    const threads = pool(1);
    const error = (await threads
      .call({ op: 'fail', code: 'EENVELOPE', status: 550 })
      .catch((e: unknown) => e)) as Error & Record<string, unknown>;
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('RangeError');
    expect(error.message).toBe('refused');
    expect(error.stack).toContain('echo-thread.fixture');
    expect(error.code).toBe('EENVELOPE');
    expect(error.status).toBe(550);
    expect(error.skipped).toBeUndefined();
    await threads.close();
  });

  it('gives each call to the thread with the fewest in flight', async () => {
    const threads = pool(2);
    const ids = (await Promise.all(
      [1, 2, 3, 4].map(() => threads.call({ op: 'wait', ms: 200 })),
    )) as number[];
    expect(ids.filter((id) => id === ids[0])).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    await threads.close();
  });

  it('fails the calls of a thread that dies with a transient ThreadLostError, and starts it again', async () => {
    const threads = pool(1);
    await threads.ready();
    const waiting = threads.call({ op: 'wait', ms: 5_000 }).catch((e: unknown) => e);
    const died = await threads.call({ op: 'die' }).catch((e: unknown) => e);
    expect(died).toBeInstanceOf(ThreadLostError);
    expect((died as ThreadLostError).transient).toBe(true);
    expect(await waiting).toBeInstanceOf(ThreadLostError);
    // Meanwhile no thread runs: calls fail at once rather than wait, and readiness fails.
    await expect(threads.call({ op: 'echo', value: 1 })).rejects.toBeInstanceOf(ThreadLostError);
    await expect(threads.probe()).rejects.toBeInstanceOf(ThreadLostError);
    await threads.ready();
    await expect(threads.call({ op: 'echo', value: 2 })).resolves.toMatchObject({ value: 2 });
    await threads.close();
  });

  it('refuses a call it cannot send without counting it, so closing still ends', async () => {
    const threads = pool(1);
    const uncloneable = { op: 'echo', value: () => 1 } as unknown as EchoCall;
    await expect(threads.call(uncloneable)).rejects.toThrow(/could not be cloned/);
    await expect(threads.close()).resolves.toBeUndefined();
  });

  it('lets calls in flight finish when closed, and refuses new ones', async () => {
    const threads = pool(1);
    const inFlight = threads.call({ op: 'wait', ms: 300 });
    const closed = threads.close();
    expect(threads.close()).toBe(closed);
    await expect(threads.call({ op: 'echo', value: 1 })).rejects.toBeInstanceOf(ThreadLostError);
    await expect(inFlight).resolves.toEqual(expect.any(Number));
    await closed;
  });

  it('reports a script that cannot load as not ready, instead of failing every call later', async () => {
    const threads = pool(1, join(__dirname, 'no-such-thread.ts'));
    await expect(threads.ready()).rejects.toThrow(/stopped before it was ready/);
    await expect(threads.probe()).rejects.toBeInstanceOf(ThreadLostError);
    await threads.close();
  });

  it('refuses a pool without threads', () => {
    expect(() => pool(0)).toThrow(RangeError);
  });
});
