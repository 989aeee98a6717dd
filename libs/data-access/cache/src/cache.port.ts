/**
 * Coordination primitives shared by replicas: throttling counters, dedup and idempotency keys, a
 * durable delayed queue for scheduled sends, and pub/sub for WebSocket fan-out. Keys are opaque
 * strings chosen by callers (who include the tenant scope in them).
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
}

export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once subscribed; the returned function unsubscribes. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
}

/** One adapter provides all three, with one connection set and one lifecycle. */
export interface CoordinationStore extends Cache, DelayedQueue, PubSub {
  probe(): Promise<void>;
  close(): Promise<void>;
}

export const COORDINATION = Symbol('COORDINATION');
