import { GroupCommit, MAX_WRITES_PER_COMMIT } from './group-commit';

/** A stand-in transaction: records each commit's writes, resolves when `release` is called. */
class Commits {
  readonly batches: number[] = [];
  readonly log: string[] = [];
  private pending: (() => void)[] = [];
  fail: Error | undefined;

  readonly commit = (writes: readonly (() => void)[]): Promise<void> => {
    this.batches.push(writes.length);
    for (const write of writes) write();
    const error = this.fail;
    return new Promise<void>((resolve, reject) =>
      this.pending.push(() => (error === undefined ? resolve() : reject(error))),
    );
  };

  release(): void {
    const pending = this.pending;
    this.pending = [];
    for (const done of pending) done();
  }
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('GroupCommit', () => {
  it('commits the writes of one linger window in one transaction, and resolves each once it committed', async () => {
    const commits = new Commits();
    const group = new GroupCommit(commits.commit, 5);
    let resolved = 0;
    const writes = ['a', 'b', 'c'].map((name) =>
      group.add(() => commits.log.push(name)).then(() => resolved++),
    );
    await tick();
    expect(commits.batches).toEqual([]);
    await after(10);
    expect(commits.batches).toEqual([3]);
    expect(commits.log).toEqual(['a', 'b', 'c']);
    await tick();
    expect(resolved).toBe(0);
    commits.release();
    await Promise.all(writes);
    expect(resolved).toBe(3);
  });

  it('keeps one commit in flight and puts what arrives meanwhile in the next one, at once', async () => {
    const commits = new Commits();
    const group = new GroupCommit(commits.commit, 1);
    const first = group.add(() => commits.log.push('first'));
    await after(5);
    const second = [group.add(() => commits.log.push('second')), group.add(() => commits.log.push('third'))];
    await after(5);
    expect(commits.batches).toEqual([1]);
    commits.release();
    await first;
    await tick();
    expect(commits.batches).toEqual([1, 2]);
    commits.release();
    await Promise.all(second);
    expect(commits.log).toEqual(['first', 'second', 'third']);
  });

  it('rejects only the write that threw, and every write of a failed commit', async () => {
    const commits = new Commits();
    const group = new GroupCommit(commits.commit, 1);
    const good = group.add(() => commits.log.push('good'));
    const bad = group.add(() => {
      throw new Error('cannot encode');
    });
    await after(5);
    commits.release();
    await expect(good).resolves.toBe(1);
    await expect(bad).rejects.toThrow('cannot encode');

    commits.fail = new Error('disk full');
    const lost = group.add(() => commits.log.push('lost'));
    await after(5);
    commits.release();
    await expect(lost).rejects.toThrow('disk full');
  });

  it('resolves each write with what it returned inside the transaction', async () => {
    const commits = new Commits();
    const group = new GroupCommit(commits.commit, 1);
    let counter = 0;
    const results = [group.add(() => ++counter), group.add(() => ++counter)];
    await after(5);
    commits.release();
    await expect(Promise.all(results)).resolves.toEqual([1, 2]);
  });

  it('rejects the writes of a commit that throws at once', async () => {
    const group = new GroupCommit(() => {
      throw new Error('the database is closed');
    }, 1);
    await expect(group.add(() => 1)).rejects.toThrow('the database is closed');
  });

  it('close commits what is queued without waiting for the linger', async () => {
    const commits = new Commits();
    const group = new GroupCommit(commits.commit, 60_000);
    const write = group.add(() => commits.log.push('queued'));
    const closed = group.close();
    await tick();
    expect(commits.batches).toEqual([1]);
    commits.release();
    await closed;
    await expect(write).resolves.toBe(1);
  });

  it('once closed, refuses new writes with a clear error and still ends while writers keep adding', async () => {
    const commits = new Commits();
    const group = new GroupCommit(commits.commit, 1);
    const outcomes: Promise<string>[] = [];
    let writing = true;
    // A writer that adds one write per turn of the event loop, whatever happens.
    const writer = (async () => {
      while (writing) {
        outcomes.push(
          group
            .add(() => commits.log.push('w'))
            .then(
              () => 'committed',
              (error: Error) => error.message,
            ),
        );
        await tick();
      }
    })();
    const releaser = setInterval(() => commits.release(), 1);
    await after(10);
    await group.close();
    clearInterval(releaser);
    await after(5);
    writing = false;
    await writer;
    const settled = await Promise.all(outcomes);
    const committed = settled.filter((outcome) => outcome === 'committed').length;
    expect(committed).toBe(commits.log.length);
    expect(committed).toBeGreaterThan(0);
    expect(new Set(settled.slice(committed))).toEqual(
      new Set(['the storage is closed: the write was not accepted']),
    );
  });

  it(`runs at most ${MAX_WRITES_PER_COMMIT} writes in one transaction, the rest in the next one`, async () => {
    const commits = new Commits();
    const group = new GroupCommit(commits.commit, 1);
    const writes = Array.from({ length: MAX_WRITES_PER_COMMIT + 5 }, () => group.add(() => undefined));
    await after(5);
    expect(commits.batches).toEqual([MAX_WRITES_PER_COMMIT]);
    commits.release();
    await tick();
    expect(commits.batches).toEqual([MAX_WRITES_PER_COMMIT, 5]);
    commits.release();
    await Promise.all(writes);
  });
});
