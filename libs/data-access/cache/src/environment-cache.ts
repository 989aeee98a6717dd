import type { TenantScope } from '@notify/domain';
import { type Clock, LruCache } from '@notify/util';
import type { EnvironmentChangesStore } from './stores/environment-changes.store';

/** How long an entry is trusted if a change announcement was lost. */
const TTL_MS = 5_000;

interface CommonOptions<T, K> {
  /** Where changes of what is cached are announced. */
  readonly changes: EnvironmentChangesStore;
  readonly clock: Clock;
  /** Reads an environment's value (the one under `key`) from its store. */
  readonly load: (scope: TenantScope, key: K) => Promise<T>;
  /** With maxWeight: what a loaded value weighs (bytes); the cache keeps at most maxWeight. */
  readonly weigh?: (value: T) => number;
  readonly maxWeight?: number;
}

/**
 * One value per environment without a key type; with one, `keyOf` (the string that names a key
 * within its environment) is required, so keyed values can never share one entry.
 */
export type EnvironmentCacheOptions<T, K = void> = CommonOptions<T, K> &
  ([K] extends [void] ? { readonly keyOf?: never } : { readonly keyOf: (key: K) => string });

interface Entry<T> {
  readonly at: number;
  /** The announcement count when it was read: an announcement of its environment after that stales it. */
  readonly seen: number;
  readonly value: Promise<T>;
  /** 0 while loading. */
  readonly weight: number;
}

/**
 * Something read per environment (or per key within one: a notification type, a template) on a
 * hot path (every send, every delivery event), read at most once per TTL_MS per process (what is
 * missing is cached too). A change announced on its changes store stales every entry of that
 * environment at once, on every replica, including one still loading when the announcement came
 * (its read may predate the change). With a weight bound, a value that alone outweighs it is read
 * each time instead of kept.
 */
export class EnvironmentCache<T, K = void> {
  private readonly cache: LruCache<string, Entry<T>>;
  private readonly keyOf: ((key: K) => string) | undefined;
  private announcements = 0;
  /**
   * The last announcement per environment, kept for TTL_MS: any entry read before it is older
   * than that, so expired anyway.
   */
  private readonly announced = new Map<string, { readonly at: number; readonly count: number }>();

  constructor(private readonly options: EnvironmentCacheOptions<T, K>) {
    this.cache = new LruCache<string, Entry<T>>({
      maxEntries: 10_000,
      ...(options.maxWeight !== undefined ? { maxWeight: options.maxWeight } : {}),
      weigh: (entry) => entry.weight,
    });
    this.keyOf = options.keyOf;
  }

  /** Starts staling announced environments; answers how to stop. */
  listen(): Promise<() => Promise<void>> {
    return this.options.changes.listen((scope) => this.changed(scope));
  }

  get(scope: TenantScope, key: K): Promise<T> {
    const id = this.idOf(scope, key);
    const now = this.options.clock.now();
    const cached = this.cache.get(id);
    if (cached !== undefined && this.fresh(scope, cached, now)) return cached.value;
    const entry: Entry<T> = {
      at: now,
      seen: this.announcements,
      value: this.options.load(scope, key),
      weight: 0,
    };
    this.cache.set(id, entry);
    // Weighed once loaded, unless dropped (or replaced) meanwhile.
    entry.value.then(
      (value) => {
        const { weigh } = this.options;
        if (weigh !== undefined && this.cache.get(id) === entry)
          this.cache.set(id, { ...entry, weight: weigh(value) });
      },
      () => {
        if (this.cache.get(id) === entry) this.cache.delete(id);
      },
    );
    return entry.value;
  }

  /** Drops one entry (this process wrote it), so the next get reads it again. */
  forget(scope: TenantScope, key: K): void {
    this.cache.delete(this.idOf(scope, key));
  }

  private changed(scope: TenantScope): void {
    const now = this.options.clock.now();
    const environment = environmentKey(scope);
    this.announced.delete(environment);
    this.announced.set(environment, { at: now, count: ++this.announcements });
    // In announcement order: the oldest first, and none needed once past TTL_MS.
    for (const [key, { at }] of this.announced) {
      if (now - at < TTL_MS) break;
      this.announced.delete(key);
    }
  }

  private fresh(scope: TenantScope, entry: Entry<T>, now: number): boolean {
    const last = this.announced.get(environmentKey(scope));
    return now - entry.at < TTL_MS && (last === undefined || last.count <= entry.seen);
  }

  private idOf(scope: TenantScope, key: K): string {
    const within = this.keyOf?.(key) ?? '';
    return `${environmentKey(scope)}\n${within}`;
  }
}

const environmentKey = (scope: TenantScope) => `${scope.accountId}/${scope.envId}`;
