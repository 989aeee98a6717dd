import { eachConcurrently } from './each-concurrently';

describe('eachConcurrently', () => {
  it('runs every item once, in order of start, never more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    await eachConcurrently([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      started.push(item);
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, item % 2 === 0 ? 5 : 1));
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(3);
  });

  it('does nothing for no items, and rejects with a failure', async () => {
    const seen: number[] = [];
    await eachConcurrently([], 4, async (item: number) => void seen.push(item));
    expect(seen).toEqual([]);
    await expect(
      eachConcurrently([1, 2], 2, async (item) => {
        if (item === 2) throw new Error('two');
      }),
    ).rejects.toThrow('two');
  });

  it('starts nothing after a failure, and settles only once the running items ended', async () => {
    const started: number[] = [];
    let slowEnded = false;
    const result = eachConcurrently([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      if (item === 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        slowEnded = true;
      }
      if (item === 2) throw new Error('two');
    });
    await expect(result).rejects.toThrow('two');
    expect(slowEnded).toBe(true);
    expect(started).toEqual([1, 2]);
  });
});
