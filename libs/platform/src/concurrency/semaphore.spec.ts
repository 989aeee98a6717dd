import { Semaphore } from './semaphore';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Semaphore', () => {
  it('runs at most `limit` at once, the rest in arrival order', async () => {
    const semaphore = new Semaphore(2);
    const releases: (() => void)[] = [];
    const started: number[] = [];
    const runs = [0, 1, 2, 3].map((i) =>
      semaphore.run(
        () =>
          new Promise<void>((resolve) => {
            started.push(i);
            releases.push(resolve);
          }),
      ),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(semaphore.usage).toEqual({ active: 2, waiting: 2 });
    releases[0]?.();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    releases.slice(1).forEach((release) => release());
    await tick();
    releases.forEach((release) => release());
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(semaphore.usage).toEqual({ active: 0, waiting: 0 });
  });

  it('frees the slot when the work fails, and drops an aborted waiter', async () => {
    const semaphore = new Semaphore(1);
    let release: () => void = () => undefined;
    const holding = semaphore.run(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const waiting = semaphore.run(() => Promise.resolve('never'), controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    expect(semaphore.usage).toEqual({ active: 1, waiting: 0 });
    release();
    await holding;
    await expect(semaphore.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(semaphore.usage).toEqual({ active: 0, waiting: 0 });
  });
});
