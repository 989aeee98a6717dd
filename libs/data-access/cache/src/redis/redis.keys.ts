export interface QueueKeys {
  /** ZSET id → the time the item is next due (its due time, or the end of its current lease). */
  readonly due: string;
  /** HASH id → JSON `{payload, dueAt}`. */
  readonly items: string;
  /** HASH id → the token of the item's current claim. */
  readonly claims: string;
}

/**
 * Every key and channel name the Redis adapter uses. The keys of one queue share the hash tag
 * `{dq:<queue>}`, so a script touching all three runs in one Redis Cluster slot while different
 * queues spread over the cluster.
 */
export class RedisKeys {
  constructor(private readonly prefix: string) {}

  value(key: string): string {
    return `${this.prefix}kv:${key}`;
  }

  queue(queue: string): QueueKeys {
    const tagged = `${this.prefix}{dq:${queue}}`;
    return { due: `${tagged}:due`, items: `${tagged}:items`, claims: `${tagged}:claims` };
  }

  channel(channel: string): string {
    return `${this.prefix}ch:${channel}`;
  }
}
