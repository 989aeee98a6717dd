import { Worker } from 'node:worker_threads';
import type { Logger } from '../logging/logger';
import { isReady, reviveError, type ThreadMessage, type ThreadRequest } from './thread-protocol';

/**
 * A thread that went away with calls in flight (it crashed or ran out of memory), or no thread
 * running to take a call. Transient: the caller hands the work back to whoever retries transient
 * failures (the bus redelivers it). Work a thread finished just before it died is done again, as
 * after a crashed process: at-least-once.
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
  /** Each thread's heap limit: one that outgrows it dies alone, like any other lost thread. */
  readonly maxHeapMb: number;
  /** The first restart's delay, doubling while a thread keeps dying before it is ready (1 s). */
  readonly restartDelayMs?: number;
  readonly logger: Logger;
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Thread {
  readonly index: number;
  worker: Worker | undefined;
  /** Its script loaded and it serves calls (calls sent before are queued by the thread). */
  ready: boolean;
  readonly pending: Map<number, Pending>;
  /** Consecutive deaths before becoming ready: the restart delay grows with it. */
  failures: number;
}

const MAX_RESTART_DELAY_MS = 30_000;
const YOUNG_GENERATION_MB = 16;

/**
 * A fixed set of worker threads answering calls (`serveThread` on the other side), so CPU-heavy
 * work leaves the event loop that serves everything else: each call goes to the thread with the
 * fewest calls in flight. A thread that dies fails its calls with ThreadLostError and is started
 * again after 1 s, doubling to 30 s while it keeps dying before it is ready (e.g. a script that
 * cannot load); calls meanwhile go to the threads still running.
 */
export class ThreadPool<Request, Response> {
  private readonly threads: Thread[];
  private nextId = 1;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly readyWaiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private closing: Promise<void> | undefined;

  constructor(private readonly options: ThreadPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new RangeError(`a thread pool needs at least one thread, got ${options.size}`);
    this.threads = Array.from({ length: options.size }, (_, index) => ({
      index,
      worker: undefined,
      ready: false,
      pending: new Map<number, Pending>(),
      failures: 0,
    }));
    for (const thread of this.threads) this.start(thread);
  }

  /**
   * Resolves once every thread loaded its script; rejects if one dies first (a script that cannot
   * load), so a service fails its start instead of failing every call later.
   */
  ready(): Promise<void> {
    if (this.threads.every((t) => t.ready)) return Promise.resolve();
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /** Readiness: rejects while no thread is running. */
  async probe(): Promise<void> {
    if (!this.threads.some((t) => t.ready))
      throw new ThreadLostError(`${this.options.name}: no thread is running`);
  }

  call(request: Request): Promise<Response> {
    if (this.closing !== undefined)
      return Promise.reject(new ThreadLostError(`${this.options.name}: the pool is closed`));
    const thread = this.leastBusy();
    const worker = thread?.worker;
    if (thread === undefined || worker === undefined)
      return Promise.reject(new ThreadLostError(`${this.options.name}: no thread is running`));
    const id = this.nextId++;
    return new Promise<Response>((resolve, reject) => {
      // Posted before it is counted: a request that cannot be cloned rejects and leaves no trace.
      worker.postMessage({ id, request } satisfies ThreadRequest);
      thread.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Refuses new calls, waits for those in flight, then stops the threads. */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    if (!this.idle()) await new Promise<void>((idle) => this.idleWaiters.push(idle));
    const running = this.threads.flatMap((thread) => {
      const worker = thread.worker;
      thread.worker = undefined;
      thread.ready = false;
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
    if (this.closing !== undefined) return;
    const { name, script, workerData, execArgv, maxHeapMb } = this.options;
    let worker: Worker;
    try {
      worker = new Worker(script, {
        name: `${name}-${thread.index}`,
        workerData,
        // A small young generation, as `npm start` gives the main thread: a busy thread otherwise
        // grows it to V8's default and holds that memory between collections.
        resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
        ...(execArgv !== undefined ? { execArgv: [...execArgv] } : {}),
      });
    } catch (error) {
      // A thread that cannot even be created (memory or thread limits) is retried like a lost one.
      this.restartLater(thread, error as Error, 0);
      return;
    }
    // A pool nobody closed does not keep the process alive.
    worker.unref();
    thread.worker = worker;
    worker.on('message', (message: ThreadMessage) => {
      if (isReady(message)) return this.becameReady(thread);
      const entry = thread.pending.get(message.id);
      if (entry === undefined) return;
      this.settled(thread, message.id);
      if (message.ok) entry.resolve(message.value);
      else entry.reject(reviveError(message.error));
    });
    worker.on('error', (error) => this.lost(thread, worker, error));
    worker.on('exit', (code) => this.lost(thread, worker, new Error(`exited with code ${code}`)));
  }

  private becameReady(thread: Thread): void {
    thread.ready = true;
    thread.failures = 0;
    if (this.threads.every((t) => t.ready))
      for (const waiter of this.readyWaiters.splice(0)) waiter.resolve();
  }

  private settled(thread: Thread, id: number): void {
    thread.pending.delete(id);
    if (this.idle()) for (const waiter of this.idleWaiters.splice(0)) waiter();
  }

  private idle(): boolean {
    return this.threads.every((thread) => thread.pending.size === 0);
  }

  private lost(thread: Thread, worker: Worker, cause: Error): void {
    if (thread.worker !== worker) return;
    const wasReady = thread.ready;
    thread.worker = undefined;
    thread.ready = false;
    const failed = [...thread.pending.values()];
    for (const id of [...thread.pending.keys()]) this.settled(thread, id);
    const label = `${this.options.name}-${thread.index}`;
    for (const entry of failed)
      entry.reject(new ThreadLostError(`${label} stopped during the call: ${cause.message}`));
    if (!wasReady)
      for (const waiter of this.readyWaiters.splice(0))
        waiter.reject(new Error(`${label} stopped before it was ready: ${cause.message}`));
    this.restartLater(thread, cause, failed.length);
  }

  private restartLater(thread: Thread, cause: Error, inFlight: number): void {
    if (this.closing !== undefined) return;
    const delay = Math.min(
      MAX_RESTART_DELAY_MS,
      (this.options.restartDelayMs ?? 1_000) * 2 ** thread.failures,
    );
    thread.failures++;
    this.options.logger.error(
      { err: cause, thread: `${this.options.name}-${thread.index}`, inFlight, restartInMs: delay },
      'a worker thread stopped; starting it again',
    );
    setTimeout(() => this.start(thread), delay).unref();
  }
}
