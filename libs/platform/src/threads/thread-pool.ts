import { Worker } from 'node:worker_threads';
import type { Logger } from '../logging/logger';
import { reviveError, type ThreadReply, type ThreadRequest } from './thread-protocol';

/**
 * A thread that went away with calls in flight (it crashed, ran out of memory, or the pool closed).
 * Transient: what was in flight is retried by whoever retries transient failures (the bus).
 */
export class ThreadLostError extends Error {
  readonly transient = true;

  constructor(message: string) {
    super(message);
    this.name = 'ThreadLostError';
  }
}

export interface ThreadPoolOptions {
  /** Shown in logs and as the threads' names (`<name>-<n>`). */
  readonly name: string;
  /** The compiled module each thread runs; it calls `serveThread`. */
  readonly script: string;
  readonly size: number;
  /** Given to every thread as `workerData` (structured-cloned: plain data only). */
  readonly workerData?: unknown;
  /** Node options for the threads; by default the process's own (e.g. a require hook). */
  readonly execArgv?: readonly string[];
  readonly logger: Logger;
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Thread {
  readonly index: number;
  worker: Worker | undefined;
  readonly pending: Map<number, Pending>;
  /** Consecutive deaths without a successful reply in between: the restart backoff grows with it. */
  failures: number;
}

const MAX_RESTART_DELAY_MS = 30_000;

/**
 * A fixed set of worker threads answering calls (`serveThread` on the other side), so CPU-heavy
 * work leaves the event loop that serves everything else: each call goes to the thread with the
 * fewest calls in flight. A thread that dies fails its calls with ThreadLostError and is started
 * again after 1 s, doubling to 30 s while it keeps dying without answering anything (e.g. a script
 * that cannot load); calls meanwhile go to the threads still running.
 */
export class ThreadPool<Request, Response> {
  private readonly threads: Thread[];
  private nextId = 1;
  private inFlight = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly options: ThreadPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new RangeError(`a thread pool needs at least one thread, got ${options.size}`);
    this.threads = Array.from({ length: options.size }, (_, index) => {
      const thread: Thread = { index, worker: undefined, pending: new Map(), failures: 0 };
      this.start(thread);
      return thread;
    });
  }

  /** Calls in flight, per thread (for tests and logs). */
  get load(): number[] {
    return this.threads.map((t) => t.pending.size);
  }

  call(request: Request, transfer: readonly ArrayBuffer[] = []): Promise<Response> {
    if (this.closed) return Promise.reject(new ThreadLostError(`${this.options.name}: the pool is closed`));
    const thread = this.leastBusy();
    const worker = thread?.worker;
    if (thread === undefined || worker === undefined)
      return Promise.reject(new ThreadLostError(`${this.options.name}: no thread is running`));
    const id = this.nextId++;
    return new Promise<Response>((resolve, reject) => {
      thread.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.inFlight++;
      const message: ThreadRequest = { id, request };
      worker.postMessage(message, [...transfer]);
    });
  }

  /** Refuses new calls, waits for those in flight, then stops the threads. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.inFlight > 0) await new Promise<void>((idle) => this.idleWaiters.push(idle));
    const running = this.threads.flatMap((thread) => {
      const worker = thread.worker;
      thread.worker = undefined;
      return worker === undefined ? [] : [worker];
    });
    await Promise.all(running.map((worker) => worker.terminate()));
  }

  private leastBusy(): Thread | undefined {
    let best: Thread | undefined;
    for (const thread of this.threads) {
      if (thread.worker === undefined) continue;
      if (best === undefined || thread.pending.size < best.pending.size) best = thread;
    }
    return best;
  }

  private start(thread: Thread): void {
    if (this.closed) return;
    const { name, script, workerData, execArgv } = this.options;
    const worker = new Worker(script, {
      name: `${name}-${thread.index}`,
      workerData,
      ...(execArgv !== undefined ? { execArgv: [...execArgv] } : {}),
    });
    // A pool nobody closed does not keep the process alive.
    worker.unref();
    thread.worker = worker;
    worker.on('message', (reply: ThreadReply) => {
      const entry = thread.pending.get(reply.id);
      if (entry === undefined) return;
      this.settled(thread, reply.id);
      thread.failures = 0;
      if (reply.ok) entry.resolve(reply.value);
      else entry.reject(reviveError(reply.error));
    });
    worker.on('error', (error) => this.lost(thread, worker, error));
    worker.on('exit', (code) => this.lost(thread, worker, new Error(`exited with code ${code}`)));
  }

  private settled(thread: Thread, id: number): void {
    thread.pending.delete(id);
    this.inFlight--;
    if (this.inFlight === 0) for (const idle of this.idleWaiters.splice(0)) idle();
  }

  private lost(thread: Thread, worker: Worker, cause: Error): void {
    if (thread.worker !== worker) return;
    thread.worker = undefined;
    const failed = [...thread.pending.values()];
    for (const id of [...thread.pending.keys()]) this.settled(thread, id);
    for (const entry of failed)
      entry.reject(
        new ThreadLostError(`${this.options.name}-${thread.index} stopped during the call: ${cause.message}`),
      );
    if (this.closed) return;
    const delay = Math.min(MAX_RESTART_DELAY_MS, 1_000 * 2 ** thread.failures);
    thread.failures++;
    this.options.logger.error(
      {
        err: cause,
        thread: `${this.options.name}-${thread.index}`,
        inFlight: failed.length,
        restartInMs: delay,
      },
      'a worker thread stopped; starting it again',
    );
    setTimeout(() => this.start(thread), delay).unref();
  }
}
