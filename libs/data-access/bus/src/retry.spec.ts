import { AbortedError, backoffMs, sleep } from './retry';

describe('backoffMs', () => {
  const policy = { maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 1_000, transientWindowMs: 0 };

  it('doubles per attempt with jitter in the upper half, capped at the maximum', () => {
    expect(backoffMs(policy, 1, () => 0)).toBe(50);
    expect(backoffMs(policy, 1, () => 1)).toBe(100);
    expect(backoffMs(policy, 3, () => 1)).toBe(400);
    expect(backoffMs(policy, 10, () => 1)).toBe(1_000);
    expect(backoffMs(policy, 10, () => 0)).toBe(500);
  });
});

describe('sleep', () => {
  it('wakes early with AbortedError when aborted', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
  });
});
