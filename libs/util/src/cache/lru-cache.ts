export interface LruOptions<V> {
  /** Most entries kept. */
  readonly maxEntries: number;
  /** Most total weight kept (e.g. bytes); entries heavier than this are not kept at all. */
  readonly maxWeight?: number;
  readonly weigh?: (value: V) => number;
  /** Called for every entry that leaves the cache (evicted, replaced, deleted or cleared). */
  readonly onEvict?: (value: V) => void;
}

/**
 * A least-recently-used map bounded by count and optionally by weight: every in-process cache of
 * tenant-derived data (compiled templates, provider clients) sits behind one, so no tenant input
 * can grow memory without limit.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private weight = 0;

  constructor(private readonly options: LruOptions<V>) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value`; false when it alone outweighs the cache (then it is not kept). */
  set(key: K, value: V): boolean {
    this.delete(key);
    const weight = this.options.weigh?.(value) ?? 1;
    if (this.options.maxWeight !== undefined && weight > this.options.maxWeight) return false;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    while (
      this.entries.size > this.options.maxEntries ||
      (this.options.maxWeight !== undefined && this.weight > this.options.maxWeight)
    ) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.delete(oldest.value);
    }
    return true;
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.weight -= entry.weight;
    this.options.onEvict?.(entry.value);
    return true;
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  get totalWeight(): number {
    return this.weight;
  }
}
