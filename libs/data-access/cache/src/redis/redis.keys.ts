export interface QueueKeys {
  /** ZSET id → the time the item is next due (its due time, or the end of its current lease). */
  readonly due: string;
  /** HASH id → JSON `{payload, dueAt}`. */
  readonly items: string;
  /** HASH id → the token of the item's current claim. */
  readonly claims: string;
  /** HASH id → `<bytes>:<pool>`, for items counted against a pool's quota. */
  readonly charges: string;
  /** HASH `n:<pool>` → items and `b:<pool>` → payload bytes the pool holds. */
  readonly quota: string;
}

export interface BufferKeys {
  /** STRING: the bytes all buffers of the pool hold. */
  readonly pool: string;
  /** LIST of the buffer's values, in append order. */
  readonly items: string;
  /** HASH id → 1: the ids the buffer holds. */
  readonly ids: string;
  /** HASH `bytes` → the bytes the buffer holds. */
  readonly meta: string;
}

/**
 * Every key and channel name the Redis adapter uses. The keys of one queue share the hash tag
 * `{dq:<queue>}`, and those of a buffer pool `{buf:<pool>}`, so a script touching them runs in
 * one Redis Cluster slot while different queues and pools spread over the cluster.
 */
export class RedisKeys {
  constructor(private readonly prefix: string) {}

  value(key: string): string {
    return `${this.prefix}kv:${key}`;
  }

  queue(queue: string): QueueKeys {
    const tagged = `${this.prefix}{dq:${queue}}`;
    return {
      due: `${tagged}:due`,
      items: `${tagged}:items`,
      claims: `${tagged}:claims`,
      charges: `${tagged}:charges`,
      quota: `${tagged}:quota`,
    };
  }

  buffer(pool: string, buffer: string): BufferKeys {
    const tagged = `${this.prefix}{buf:${pool}}`;
    // The buffer's name goes last, so no buffer's keys can spell the pool's or another's.
    return {
      pool: `${tagged}:pool`,
      items: `${tagged}:items:${buffer}`,
      ids: `${tagged}:ids:${buffer}`,
      meta: `${tagged}:meta:${buffer}`,
    };
  }

  channel(channel: string): string {
    return `${this.prefix}ch:${channel}`;
  }
}
