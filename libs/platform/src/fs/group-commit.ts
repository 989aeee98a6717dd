/** Runs a set of writes in one storage transaction; resolves once it committed. */
export type CommitWrites = (writes: readonly (() => void)[]) => Promise<unknown>;

/**
 * A write's result: anything but a promise. A write runs synchronously inside the transaction, so
 * what an asynchronous write did after its first `await` would run outside it, uncommitted.
 */
export type WriteResult<T> = T extends PromiseLike<unknown> ? never : T;

/**
 * The most writes one transaction runs (the rest go in the next one): a commit's writes run
 * synchronously, one after the other, so this bounds how long one commit holds the event loop.
 */
export const MAX_WRITES_PER_COMMIT = 1_000;

interface Queued {
  readonly write: () => void;
  readonly settle: (failure: { error: unknown } | undefined) => void;
}

/**
 * Gathers writes for `lingerMs` and commits them in one transaction, like a Kafka producer's
 * linger: an LMDB commit costs about 0.25 ms of CPU whatever it holds (pages written, a flush),
 * so a commit per write dominated the embedded backends' cost. Each caller's promise resolves only
 * once its write committed, so what it acknowledges is as durable as before. The writes of a batch
 * run one after the other inside the transaction, each seeing what the earlier ones wrote, so a
 * read-modify-write stays exact. One commit is in flight at a time; writes queued meanwhile have
 * waited long enough and go in the next one at once. A write that was accepted is committed or
 * rejected, never dropped, also at `close`.
 */
export class GroupCommit {
  private queued: Queued[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly commit: CommitWrites,
    private readonly lingerMs: number,
  ) {}

  /**
   * `write` runs inside the transaction; its result is what the promise resolves to, after the
   * commit. A write that throws rejects its own promise only (what it wrote before throwing stays).
   * Rejects at once once closed.
   */
  add<T>(write: () => WriteResult<T>): Promise<WriteResult<T>> {
    if (this.closed) return Promise.reject(new Error('the storage is closed: the write was not accepted'));
    return new Promise<WriteResult<T>>((resolve, reject) => {
      let result: WriteResult<T>;
      this.queued.push({
        write: () => {
          result = write();
        },
        settle: (failure) => (failure === undefined ? resolve(result) : reject(failure.error)),
      });
      if (this.inFlight === undefined && this.timer === undefined) {
        this.timer = setTimeout(() => this.flush(), this.lingerMs);
      }
    });
  }

  /**
   * Accepts no more writes, commits what was accepted without waiting for the linger, and waits
   * for every commit in flight. Since nothing new is accepted, this ends however busy the callers.
   */
  async close(): Promise<void> {
    this.closed = true;
    while (this.inFlight !== undefined || this.queued.length > 0) {
      if (this.inFlight === undefined) this.flush();
      await this.inFlight;
    }
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queued.splice(0, MAX_WRITES_PER_COMMIT);
    if (batch.length === 0) return;
    const failed = new Map<Queued, { error: unknown }>();
    const writes = batch.map((queued) => () => {
      try {
        queued.write();
      } catch (error) {
        failed.set(queued, { error });
      }
    });
    this.inFlight = this.committing(writes).then(
      () => {
        for (const queued of batch) queued.settle(failed.get(queued));
      },
      (error: unknown) => {
        for (const queued of batch) queued.settle({ error });
      },
    );
    void this.inFlight.then(() => {
      this.inFlight = undefined;
      if (this.queued.length > 0) this.flush();
    });
  }

  /** The commit as a promise, also when it throws at once (a closed database). */
  private async committing(writes: readonly (() => void)[]): Promise<unknown> {
    return this.commit(writes);
  }
}
