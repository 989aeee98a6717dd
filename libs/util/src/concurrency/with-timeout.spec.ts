import { withTimeout } from './with-timeout';

describe('withTimeout', () => {
  it('answers what the promise answers in time, and rejects once the time is up', async () => {
    await expect(withTimeout(Promise.resolve('read'), 1_000)).resolves.toBe('read');
    await expect(withTimeout(Promise.reject(new Error('down')), 1_000)).rejects.toThrow('down');
    await expect(withTimeout(new Promise<never>(() => undefined), 20)).rejects.toThrow(
      'no answer within 20 ms',
    );
  });
});
