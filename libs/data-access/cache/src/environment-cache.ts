import type { TenantScope } from '@notify/domain';
import { type Clock, LruCache } from '@notify/util';
import type { EnvironmentChangesStore } from './stores/environment-changes.store';

/** How long an environment's entry is trusted if a change announcement was lost. */
const TTL_MS = 5_000;

export interface EnvironmentCacheOptions<T> {
  /** Where changes of what is cached are announced. */
  readonly changes: EnvironmentChangesStore;
  readonly clock: Clock;
  /** Reads an environment's value from its store. */
  readonly load: (scope: TenantScope) => Promise<T>;
  /** With maxWeight: what a loaded value weighs (bytes); the cache keeps at most maxWeight. */
  readonly weigh?: (value: T) => number;
  readonly maxWeight?: number;
}

interface Entry<T> {
  readonly at: number;
  readonly value: Promise<T>;
  /** 0 while loading. */
  readonly weight: number;
}

/**
 * Something read per environment on a hot path (every dispatch, every delivery event), read at
 * most once per TTL_MS per process (an environment with nothing to read is cached too). A change
 * announced on its changes store drops the environment's entry at once, on every replica. With a
 * weight bound, an environment whose value alone outweighs it is read each time instead of kept.
 */
export class EnvironmentCache<T> {
  private readonly cache: LruCache<string, Entry<T>>;

  constructor(private readonly options: EnvironmentCacheOptions<T>) {
    this.cache = new LruCache<string, Entry<T>>({
      maxEntries: 10_000,
      ...(options.maxWeight !== undefined ? { maxWeight: options.maxWeight } : {}),
      weigh: (entry) => entry.weight,
    });
  }

  /** Starts dropping announced environments; answers how to stop. */
  listen(): Promise<() => Promise<void>> {
    return this.options.changes.listen((scope) => this.cache.delete(cacheKey(scope)));
  }

  get(scope: TenantScope): Promise<T> {
    const key = cacheKey(scope);
    const now = this.options.clock.now();
    const cached = this.cache.get(key);
    if (cached !== undefined && now - cached.at < TTL_MS) return cached.value;
    const entry: Entry<T> = { at: now, value: this.options.load(scope), weight: 0 };
    this.cache.set(key, entry);
    // Weighed once loaded, unless dropped (or replaced) meanwhile.
    entry.value.then(
      (value) => {
        const { weigh } = this.options;
        if (weigh !== undefined && this.cache.get(key) === entry)
          this.cache.set(key, { ...entry, weight: weigh(value) });
      },
      () => {
        if (this.cache.get(key) === entry) this.cache.delete(key);
      },
    );
    return entry.value;
  }
}

const cacheKey = (scope: TenantScope) => `${scope.accountId}/${scope.envId}`;
