import {
  type GroupCommit,
  lmdbGroupCommit,
  type Logger,
  lockDataDir,
  openLmdb,
  type WriteResult,
} from '@notify/platform';
import type { Database, RootDatabase } from 'lmdb';
import {
  checkBufferLimits,
  checkClaim,
  checkDueAt,
  checkIncrement,
  checkQuota,
  checkDropCount,
  checkRange,
  checkTtl,
  parseCounter,
} from '../arguments';
import type {
  AppendOutcome,
  BufferLimits,
  ClaimedItem,
  CoordinationStore,
  QueueQuota,
  QuotaOutcome,
  ScheduledItem,
} from '../cache.port';
import { ChannelListeners } from '../channel-listeners';
import { claimToken, claimTokenSeed } from '../claim-token';

interface StoredValue {
  readonly value: string;
  /** Epoch milliseconds; at or after it the key counts as absent. */
  readonly expiresAt: number;
}

interface StoredItem {
  readonly payload: string;
  readonly dueAt: number;
  /** When the item is next due: its due time, or the end of its current lease. Mirrors its `due` key. */
  readonly at: number;
  readonly token: string | null;
  /** The pool this item counts against, and its payload's bytes (scheduleWithin). */
  readonly charge?: { readonly pool: string; readonly bytes: number };
}

interface Usage {
  readonly count: number;
  readonly bytes: number;
}

interface StoredBuffer extends Usage {
  readonly expiresAt: number;
}

interface StoredPool {
  readonly bytes: number;
  readonly expiresAt: number;
}

type ItemKey = [queue: string, id: string];
type DueKey = [queue: string, at: number, id: string];
type ExpiryKey = [expiresAt: number, key: string];
type QuotaKey = [queue: string, pool: string];
type BufferKey = [pool: string, buffer: string];
type BufferValueKey = [pool: string, buffer: string, position: number];
type BufferIdKey = [pool: string, buffer: string, id: string];

export interface EmbeddedCoordinationStoreOptions {
  /** Directory of the store (created if missing; one process at a time). */
  readonly path: string;
  readonly logger: Logger;
  readonly sweepIntervalMs?: number;
}

const DEFAULT_SWEEP_MS = 60_000;
/** Bounds how long one sweep holds the write transaction. */
const SWEEP_BATCH = 1_000;

/**
 * The coordination store of the all-in-one process, persisted in LMDB so scheduled sends and
 * throttling windows survive a restart. It has the Redis adapter's semantics: expiring keys, a
 * delayed queue whose claims are leases with tokens, and pub/sub (in-process here, since one process
 * holds the directory). Every read-modify-write runs alone inside one LMDB write transaction, which
 * no other call can interleave with: that is what hands each due item to exactly one claimer.
 */
export class EmbeddedCoordinationStore implements CoordinationStore {
  private readonly root: RootDatabase;
  private readonly values: Database<StoredValue, string>;
  /** Index of `values` by expiry, so a sweep reads only what expired. */
  private readonly expiries: Database<true, ExpiryKey>;
  private readonly items: Database<StoredItem, ItemKey>;
  /** Index of `items` by the time each is next due: claiming is a range read from the start. */
  private readonly due: Database<true, DueKey>;
  /** What each pool of a queue holds of the items counted against it. */
  private readonly quotas: Database<Usage, QuotaKey>;
  private readonly buffers: Database<StoredBuffer, BufferKey>;
  private readonly bufferValues: Database<string, BufferValueKey>;
  private readonly bufferIds: Database<true, BufferIdKey>;
  private readonly pools: Database<StoredPool, string>;
  private readonly listeners: ChannelListeners;
  private readonly writes: GroupCommit;
  private readonly unlock: () => void;
  private readonly sweepTimer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: EmbeddedCoordinationStoreOptions) {
    this.unlock = lockDataDir(options.path);
    try {
      this.root = openLmdb(options.path, { maxDbs: 16 });
    } catch (error) {
      this.unlock();
      throw error;
    }
    this.values = this.root.openDB<StoredValue, string>({ name: 'values' });
    this.expiries = this.root.openDB<true, ExpiryKey>({ name: 'expiries' });
    this.items = this.root.openDB<StoredItem, ItemKey>({ name: 'items' });
    this.due = this.root.openDB<true, DueKey>({ name: 'due' });
    this.quotas = this.root.openDB<Usage, QuotaKey>({ name: 'quotas' });
    this.buffers = this.root.openDB<StoredBuffer, BufferKey>({ name: 'buffers' });
    this.bufferValues = this.root.openDB<string, BufferValueKey>({ name: 'buffer-values' });
    this.bufferIds = this.root.openDB<true, BufferIdKey>({ name: 'buffer-ids' });
    this.pools = this.root.openDB<StoredPool, string>({ name: 'pools' });
    this.listeners = new ChannelListeners(options.logger);
    this.writes = lmdbGroupCommit(this.root);
    this.sweepTimer = setInterval(
      () => this.sweepInBackground(),
      options.sweepIntervalMs ?? DEFAULT_SWEEP_MS,
    );
    this.sweepTimer.unref();
  }

  async increment(key: string, by: number, ttlMs: number): Promise<number> {
    checkIncrement(by);
    checkTtl(ttlMs);
    return this.write(() => {
      const now = Date.now();
      const current = this.live(key, now);
      if (current === undefined) {
        this.replaceValue(key, { value: String(by), expiresAt: now + ttlMs });
        return by;
      }
      const next = parseCounter(current.value) + by;
      if (!Number.isSafeInteger(next)) throw new RangeError('increment would overflow the counter');
      this.values.putSync(key, { value: String(next), expiresAt: current.expiresAt });
      return next;
    });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    checkTtl(ttlMs);
    return this.write(() => {
      const now = Date.now();
      if (this.live(key, now) !== undefined) return false;
      this.replaceValue(key, { value, expiresAt: now + ttlMs });
      return true;
    });
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    checkTtl(ttlMs);
    await this.write(() => this.replaceValue(key, { value, expiresAt: Date.now() + ttlMs }));
  }

  async get(key: string): Promise<string | undefined> {
    this.assertOpen();
    return this.live(key, Date.now())?.value;
  }

  async delete(key: string): Promise<void> {
    await this.write(() => this.removeValue(key));
  }

  async schedule(queue: string, item: ScheduledItem): Promise<void> {
    checkDueAt(item.dueAt);
    await this.write(() => this.putItem(queue, item));
  }

  async scheduleWithin(queue: string, item: ScheduledItem, quota: QueueQuota): Promise<QuotaOutcome> {
    checkDueAt(item.dueAt);
    checkQuota(quota);
    const bytes = Buffer.byteLength(item.payload);
    return this.write(() => {
      const held = this.quotas.get([queue, quota.pool]) ?? { count: 0, bytes: 0 };
      const was = this.items.get([queue, item.id])?.charge;
      const replaced = was?.pool === quota.pool ? { count: 1, bytes: was.bytes } : { count: 0, bytes: 0 };
      if (held.count - replaced.count + 1 > quota.maxItems) return 'too-many';
      if (held.bytes - replaced.bytes + bytes > quota.maxBytes) return 'too-large';
      this.putItem(queue, item, { pool: quota.pool, bytes });
      this.charge(queue, quota.pool, 1, bytes);
      return 'scheduled';
    });
  }

  async cancel(queue: string, id: string): Promise<boolean> {
    return this.write(() => this.removeItem(queue, id));
  }

  async getScheduled(queue: string, id: string): Promise<ScheduledItem | undefined> {
    this.assertOpen();
    const item = this.items.get([queue, id]);
    return item === undefined ? undefined : { id, payload: item.payload, dueAt: item.dueAt };
  }

  async claimDue(queue: string, now: number, limit: number, leaseMs: number): Promise<ClaimedItem[]> {
    checkClaim(now, limit, leaseMs);
    const seed = claimTokenSeed();
    const leaseUntil = now + leaseMs;
    return this.write(() => {
      const claimed: ClaimedItem[] = [];
      for (const [, at, id] of this.dueKeys(queue, now, limit)) {
        this.due.removeSync([queue, at, id]);
        const item = this.items.get([queue, id]);
        if (item === undefined) continue;
        const token = claimToken(seed, claimed.length + 1);
        this.items.putSync([queue, id], { ...item, at: leaseUntil, token });
        this.due.putSync([queue, leaseUntil, id], true);
        claimed.push({ id, payload: item.payload, dueAt: item.dueAt, claimToken: token });
      }
      return claimed;
    });
  }

  async ack(queue: string, id: string, token: string): Promise<boolean> {
    return this.write(() => {
      if (this.items.get([queue, id])?.token !== token) return false;
      return this.removeItem(queue, id);
    });
  }

  async append(
    pool: string,
    buffer: string,
    item: { readonly id: string; readonly value: string },
    limits: BufferLimits,
    ttlMs: number,
  ): Promise<AppendOutcome> {
    checkTtl(ttlMs);
    checkBufferLimits(limits);
    const size = Buffer.byteLength(item.value);
    return this.write(() => {
      const now = Date.now();
      const held = this.liveBuffer(pool, buffer, now);
      if (held === undefined) this.clearBuffer(pool, buffer);
      else if (this.bufferIds.get([pool, buffer, item.id]) !== undefined) return 'present';
      const { count, bytes, expiresAt } = held ?? { count: 0, bytes: 0, expiresAt: 0 };
      if (count >= limits.maxItems || bytes + size > limits.maxBytes) return 'buffer-full';
      const total = this.livePool(pool, now);
      if ((total?.bytes ?? 0) + size > limits.poolMaxBytes) return 'pool-full';
      this.bufferValues.putSync([pool, buffer, count], item.value);
      this.bufferIds.putSync([pool, buffer, item.id], true);
      this.buffers.putSync([pool, buffer], {
        count: count + 1,
        bytes: bytes + size,
        expiresAt: Math.max(expiresAt, now + ttlMs),
      });
      this.pools.putSync(pool, {
        bytes: (total?.bytes ?? 0) + size,
        expiresAt: Math.max(total?.expiresAt ?? 0, now + ttlMs),
      });
      return 'appended';
    });
  }

  async readBuffer(pool: string, buffer: string, from: number, limit: number): Promise<string[]> {
    checkRange(from, limit);
    this.assertOpen();
    if (this.liveBuffer(pool, buffer, Date.now()) === undefined) return [];
    return Array.from(
      this.bufferValues.getRange({ start: [pool, buffer, from], end: [pool, buffer, from + limit] }),
      ({ value }) => value,
    );
  }

  async dropBuffer(pool: string, buffer: string, count?: number): Promise<number> {
    if (count !== undefined) checkDropCount(count);
    return this.write(() => {
      const now = Date.now();
      const held = this.liveBuffer(pool, buffer, now);
      const total = this.livePool(pool, now);
      let freed = held?.bytes ?? 0;
      let left = 0;
      if (held !== undefined && count !== undefined && held.count > count) {
        // The values past the first `count` move to the front; the ids stay (those dropped were released).
        const values = Array.from(
          this.bufferValues.getRange({ start: [pool, buffer, 0], end: [pool, buffer, held.count] }),
          ({ value }) => value,
        );
        for (const index of values.keys()) this.bufferValues.removeSync([pool, buffer, index]);
        const kept = values.slice(count);
        kept.forEach((value, index) => this.bufferValues.putSync([pool, buffer, index], value));
        freed = values.slice(0, count).reduce((sum, value) => sum + Buffer.byteLength(value), 0);
        left = kept.length;
        this.buffers.putSync([pool, buffer], { ...held, count: left, bytes: held.bytes - freed });
      } else this.clearBuffer(pool, buffer);
      if (held !== undefined && total !== undefined) {
        if (total.bytes - freed <= 0) this.pools.removeSync(pool);
        else this.pools.putSync(pool, { ...total, bytes: total.bytes - freed });
      }
      return left;
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    this.assertOpen();
    // Delivered after publish returns, as a broker would, so a listener never runs inside the publisher.
    setImmediate(() => this.listeners.dispatch(channel, message));
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    this.assertOpen();
    const { remove } = this.listeners.add(channel, listener);
    return async () => void remove();
  }

  async probe(): Promise<void> {
    this.assertOpen();
    this.values.get('');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweepTimer);
    this.listeners.clear();
    await this.writes.close();
    await this.root.close();
    this.unlock();
  }

  /**
   * Deletes keys expired at `now`, a batch per transaction; returns how many. Reads already ignore
   * expired keys: this only reclaims their space.
   */
  async sweepExpired(now = Date.now()): Promise<number> {
    this.assertOpen();
    let removed = 0;
    for (;;) {
      const batch = await this.write(() => {
        // Expiry times are whole milliseconds: everything before `now + 1` expired at or before `now`.
        const expired = Array.from(this.expiries.getKeys({ end: [now + 1], limit: SWEEP_BATCH }));
        for (const [expiresAt, key] of expired) {
          this.expiries.removeSync([expiresAt, key]);
          if (this.values.get(key)?.expiresAt === expiresAt) this.values.removeSync(key);
        }
        return expired.length;
      });
      removed += batch;
      if (batch < SWEEP_BATCH) return removed;
    }
  }

  private sweepInBackground(): void {
    if (this.closed) return;
    this.sweepExpired().then(
      (removed) => {
        if (removed > 0) this.options.logger.debug({ removed }, 'swept expired coordination keys');
      },
      (error: unknown) =>
        this.options.logger.error({ err: error }, 'sweeping expired coordination keys failed'),
    );
  }

  /**
   * Runs `action` atomically in a write transaction. Concurrent callers share one commit (see
   * GroupCommit); the action itself still runs alone, so read-modify-write (claims,
   * set-if-absent) stays exact.
   */
  private write<T>(action: () => WriteResult<T>): Promise<WriteResult<T>> {
    this.assertOpen();
    return this.writes.add(action);
  }

  private live(key: string, now: number): StoredValue | undefined {
    const stored = this.values.get(key);
    return stored !== undefined && stored.expiresAt > now ? stored : undefined;
  }

  private replaceValue(key: string, stored: StoredValue): void {
    this.removeValue(key);
    this.values.putSync(key, stored);
    this.expiries.putSync([stored.expiresAt, key], true);
  }

  private removeValue(key: string): void {
    const stored = this.values.get(key);
    if (stored === undefined) return;
    this.values.removeSync(key);
    this.expiries.removeSync([stored.expiresAt, key]);
  }

  /** Puts `item` in place of any item of that id, due (and unclaimed) at its due time. */
  private putItem(queue: string, item: ScheduledItem, charge?: StoredItem['charge']): void {
    this.removeItem(queue, item.id);
    this.items.putSync([queue, item.id], {
      payload: item.payload,
      dueAt: item.dueAt,
      at: item.dueAt,
      token: null,
      ...(charge !== undefined ? { charge } : {}),
    });
    this.due.putSync([queue, item.dueAt, item.id], true);
  }

  private removeItem(queue: string, id: string): boolean {
    const item = this.items.get([queue, id]);
    if (item === undefined) return false;
    this.items.removeSync([queue, id]);
    this.due.removeSync([queue, item.at, id]);
    if (item.charge !== undefined) this.charge(queue, item.charge.pool, -1, -item.charge.bytes);
    return true;
  }

  private charge(queue: string, pool: string, count: number, bytes: number): void {
    const held = this.quotas.get([queue, pool]) ?? { count: 0, bytes: 0 };
    const next = { count: held.count + count, bytes: held.bytes + bytes };
    if (next.count <= 0) this.quotas.removeSync([queue, pool]);
    else this.quotas.putSync([queue, pool], next);
  }

  private liveBuffer(pool: string, buffer: string, now: number): StoredBuffer | undefined {
    const stored = this.buffers.get([pool, buffer]);
    return stored !== undefined && stored.expiresAt > now ? stored : undefined;
  }

  private livePool(pool: string, now: number): StoredPool | undefined {
    const stored = this.pools.get(pool);
    return stored !== undefined && stored.expiresAt > now ? stored : undefined;
  }

  /** Removes a buffer's records whether live or expired (an expired one is reclaimed on its next use). */
  private clearBuffer(pool: string, buffer: string): void {
    if (this.buffers.get([pool, buffer]) === undefined) return;
    this.buffers.removeSync([pool, buffer]);
    for (const key of this.keysOf(this.bufferValues, pool, buffer)) this.bufferValues.removeSync(key);
    for (const key of this.keysOf(this.bufferIds, pool, buffer)) this.bufferIds.removeSync(key);
  }

  /** Every key of one buffer in `db`, read before any is removed. */
  private keysOf<K extends [string, string, number | string]>(
    db: Database<unknown, K>,
    pool: string,
    buffer: string,
  ): K[] {
    const keys: K[] = [];
    for (const key of db.getKeys({ start: [pool, buffer] as unknown as K })) {
      if (key[0] !== pool || key[1] !== buffer) break;
      keys.push(key);
    }
    return keys;
  }

  /** Up to `limit` keys of `queue` due at or before `now`, earliest first. */
  private dueKeys(queue: string, now: number, limit: number): DueKey[] {
    const keys: DueKey[] = [];
    for (const key of this.due.getKeys({ start: [queue] })) {
      if (key[0] !== queue || key[1] > now || keys.length === limit) break;
      keys.push(key);
    }
    return keys;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the embedded coordination store is closed');
  }
}
