/**
 * Runs `work` on every item, at most `limit` at once, each worker taking the next item as it
 * finishes one (items start in order). Rejects with the first failure, once the running ones end.
 */
export async function eachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
