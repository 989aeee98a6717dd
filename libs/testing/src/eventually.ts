/** Polls `probe` until it returns without throwing, or rethrows its last error after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
