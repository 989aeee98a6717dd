import { join } from 'node:path';
import { createLogger } from '../logging/logger';
import type { EchoCall } from './echo-thread.fixture';
import { ThreadLostError, ThreadPool } from './thread-pool';

const REGISTER = join(__dirname, '../../../../tools/testing/register-ts.cjs');

const pool = (size: number) =>
  new ThreadPool<EchoCall, unknown>({
    name: 'echo',
    script: join(__dirname, 'echo-thread.fixture.ts'),
    size,
    logger: createLogger({ level: 'silent', service: 'test' }),
    execArgv: ['-r', REGISTER],
  });

describe('ThreadPool', () => {
  it('answers calls on its threads, with structured-cloned values', async () => {
    const threads = pool(1);
    const answer = (await threads.call({ op: 'echo', value: { n: 1, bytes: new Uint8Array([1, 2]) } })) as {
      value: unknown;
      threadId: number;
    };
    expect(answer.value).toEqual({ n: 1, bytes: new Uint8Array([1, 2]) });
    expect(answer.threadId).toBeGreaterThan(0);
    await threads.close();
  });

  it('rebuilds a thread’s error with its name, message and primitive fields', async () => {
    const threads = pool(1);
    const error = (await threads
      .call({ op: 'fail', code: 'EENVELOPE', status: 550 })
      .catch((e: unknown) => e)) as Error & Record<string, unknown>;
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('RangeError');
    expect(error.message).toBe('refused');
    expect(error.code).toBe('EENVELOPE');
    expect(error.status).toBe(550);
    expect(error.skipped).toBeUndefined();
    await threads.close();
  });

  it('gives each call to the thread with the fewest in flight', async () => {
    const threads = pool(2);
    const calls = [1, 2, 3, 4].map(() => threads.call({ op: 'wait', ms: 200 }));
    expect(threads.load).toEqual([2, 2]);
    const ids = (await Promise.all(calls)) as number[];
    expect(new Set(ids).size).toBe(2);
    await threads.close();
  });

  it('fails the calls of a thread that dies with a transient ThreadLostError, and starts it again', async () => {
    const threads = pool(1);
    const waiting = threads.call({ op: 'wait', ms: 5_000 }).catch((e: unknown) => e);
    const died = await threads.call({ op: 'die' }).catch((e: unknown) => e);
    expect(died).toBeInstanceOf(ThreadLostError);
    expect((died as ThreadLostError).transient).toBe(true);
    expect(await waiting).toBeInstanceOf(ThreadLostError);
    // Meanwhile no thread runs: calls fail at once rather than wait.
    await expect(threads.call({ op: 'echo', value: 1 })).rejects.toBeInstanceOf(ThreadLostError);
    // Restarted after 1 s.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await expect(threads.call({ op: 'echo', value: 2 })).resolves.toMatchObject({ value: 2 });
    await threads.close();
  });

  it('lets calls in flight finish when closed, and refuses new ones', async () => {
    const threads = pool(1);
    const inFlight = threads.call({ op: 'wait', ms: 300 });
    const closed = threads.close();
    await expect(threads.call({ op: 'echo', value: 1 })).rejects.toBeInstanceOf(ThreadLostError);
    await expect(inFlight).resolves.toEqual(expect.any(Number));
    await closed;
    expect(threads.load).toEqual([0]);
  });

  it('refuses a pool without threads', () => {
    expect(() => pool(0)).toThrow(RangeError);
  });
});
