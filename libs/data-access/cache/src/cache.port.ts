/**
 * Coordination primitives shared by replicas: throttling counters, dedup and idempotency keys, a
 * durable delayed queue for scheduled sends, bounded buffers for digests, and pub/sub for
 * WebSocket fan-out. Keys are opaque strings chosen by callers (who include the tenant scope in
 * them).
 */
export interface Cache {
  /** Atomically adds `by` to a counter, creating it with a `ttlMs` expiry when absent; returns the new value. */
  increment(key: string, by: number, ttlMs: number): Promise<number>;
  /** Stores `value` only if `key` is absent (or expired); true when this call stored it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Stores `value` whatever was there, expiring after `ttlMs`. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  get(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
}

export interface ScheduledItem {
  readonly id: string;
  readonly payload: string;
  /** Epoch milliseconds. */
  readonly dueAt: number;
}

export interface ClaimedItem extends ScheduledItem {
  /** Proof of this claim; `ack` with a stale token (the item was rescheduled or re-claimed) does nothing. */
  readonly claimToken: string;
}

/**
 * A durable delayed queue. Each due item is claimed by exactly one caller across replicas. A claim
 * is a lease: if not acknowledged within `leaseMs` (the claimer died), the item is due again.
 */
export interface DelayedQueue {
  /** Schedules `id`, replacing any earlier schedule of it (and invalidating outstanding claims). */
  schedule(queue: string, item: ScheduledItem): Promise<void>;
  /** Removes `id` whether due or claimed; false if it was not there. */
  cancel(queue: string, id: string): Promise<boolean>;
  getScheduled(queue: string, id: string): Promise<ScheduledItem | undefined>;
  /** Claims up to `limit` items whose due time is at or before `now`, earliest first. */
  claimDue(queue: string, now: number, limit: number, leaseMs: number): Promise<ClaimedItem[]>;
  /** Completes a claim and removes the item; false if the claim is stale. */
  ack(queue: string, id: string, claimToken: string): Promise<boolean>;
  /**
   * Schedules like `schedule`, counting the item (one, and its payload's UTF-8 bytes) against
   * `quota.pool` until it leaves the queue (ack, cancel, or a plain `schedule` of the same id).
   * Replacing a counted item counts the new payload instead of the old. Refused, changing nothing,
   * when the pool would hold more than `maxItems` items or `maxBytes` bytes.
   */
  scheduleWithin(queue: string, item: ScheduledItem, quota: QueueQuota): Promise<QuotaOutcome>;
}

/** A share of a delayed queue: the items and payload bytes one pool (an environment) may hold. */
export interface QueueQuota {
  readonly pool: string;
  readonly maxItems: number;
  readonly maxBytes: number;
}

export type QuotaOutcome = 'scheduled' | 'too-many' | 'too-large';

/** How much one buffer holds, and the bytes that all buffers of its pool hold together. */
export interface BufferLimits {
  readonly maxItems: number;
  readonly maxBytes: number;
  readonly poolMaxBytes: number;
}

/** `present`: an item of this id is already held (nothing changed). */
export type AppendOutcome = 'appended' | 'present' | 'buffer-full' | 'pool-full';

/**
 * Append-only buffers (digest windows), grouped in pools (environments) whose bytes count
 * together. Each item is its own record, so holding one more never reads or rewrites the others,
 * and reading is a bounded range. A buffer expires `ttlMs` after its longest-lived append; its
 * bytes stay counted in the pool until it is dropped or the pool's own expiry (the longest `ttlMs`
 * any append gave it) passes.
 */
export interface Buffers {
  /** Holds `value` under `id` at the end of the buffer, unless that id is held or a cap would be passed. */
  append(
    pool: string,
    buffer: string,
    item: { readonly id: string; readonly value: string },
    limits: BufferLimits,
    ttlMs: number,
  ): Promise<AppendOutcome>;
  /** Up to `limit` values from position `from` (0 is the first appended), in append order. */
  readBuffer(pool: string, buffer: string, from: number, limit: number): Promise<string[]>;
  /**
   * Removes the buffer's first `count` values (all of it when `count` is left out or none would be
   * left) and gives their bytes back to the pool; answers how many values are left. Values appended
   * after a reader's last read survive its drop.
   */
  dropBuffer(pool: string, buffer: string, count?: number): Promise<number>;
}

export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once subscribed; the returned function unsubscribes. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
}

/** One adapter provides them all, with one connection set and one lifecycle. */
export interface CoordinationStore extends Cache, DelayedQueue, Buffers, PubSub {
  probe(): Promise<void>;
  close(): Promise<void>;
}

export const COORDINATION = Symbol('COORDINATION');
