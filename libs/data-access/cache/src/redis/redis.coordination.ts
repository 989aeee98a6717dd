import type { Logger } from '@notify/platform';
import { Redis } from 'ioredis';
import { z } from 'zod';
import {
  checkBufferLimits,
  checkClaim,
  checkDueAt,
  checkIncrement,
  checkQuota,
  checkDropCount,
  checkRange,
  checkTtl,
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
import { claimTokenSeed } from '../claim-token';
import { RedisKeys } from './redis.keys';
import { defineCoordinationCommands } from './redis.scripts';

export interface RedisCoordinationStoreOptions {
  readonly url: string;
  /** Namespaces every key and channel, so several deployments (or test runs) can share one Redis. */
  readonly keyPrefix: string;
  readonly logger: Logger;
}

/** What the items hash holds; the claim token lives beside it so a claim never rewrites the payload. */
const StoredItem = z.object({ payload: z.string(), dueAt: z.number() });
const QuotaOutcomeSchema = z.enum(['scheduled', 'too-many', 'too-large']);
const AppendOutcomeSchema = z.enum(['appended', 'present', 'buffer-full', 'pool-full']);

/**
 * Coordination across replicas on Redis: counters and keys with native expiry, the delayed queue as a
 * sorted set scored by due time (Lua scripts make claim and ack atomic), and pub/sub on a dedicated
 * subscriber connection, since a subscribed Redis connection cannot run other commands.
 */
export class RedisCoordinationStore implements CoordinationStore {
  private readonly redis: Redis;
  private readonly keys: RedisKeys;
  private readonly listeners: ChannelListeners;
  /** Channels whose SUBSCRIBE is in flight or done; later subscribers wait for the same reply. */
  private readonly subscribed = new Map<string, Promise<void>>();
  private subscriber: Redis | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: RedisCoordinationStoreOptions) {
    this.keys = new RedisKeys(options.keyPrefix);
    this.listeners = new ChannelListeners(options.logger);
    this.redis = this.watch(new Redis(options.url), 'commands');
    defineCoordinationCommands(this.redis);
  }

  async increment(key: string, by: number, ttlMs: number): Promise<number> {
    checkIncrement(by);
    checkTtl(ttlMs);
    return this.redis.coordIncrement(this.keys.value(key), by, ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    checkTtl(ttlMs);
    return (await this.redis.set(this.keys.value(key), value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    checkTtl(ttlMs);
    await this.redis.set(this.keys.value(key), value, 'PX', ttlMs);
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(this.keys.value(key))) ?? undefined;
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.keys.value(key));
  }

  async schedule(queue: string, item: ScheduledItem): Promise<void> {
    checkDueAt(item.dueAt);
    const { due, items, claims, charges, quota } = this.keys.queue(queue);
    const stored = JSON.stringify({ payload: item.payload, dueAt: item.dueAt });
    await this.redis.coordSchedule(due, items, claims, charges, quota, item.id, stored, item.dueAt);
  }

  async scheduleWithin(queue: string, item: ScheduledItem, limits: QueueQuota): Promise<QuotaOutcome> {
    checkDueAt(item.dueAt);
    checkQuota(limits);
    const { due, items, claims, charges, quota } = this.keys.queue(queue);
    const stored = JSON.stringify({ payload: item.payload, dueAt: item.dueAt });
    return QuotaOutcomeSchema.parse(
      await this.redis.coordScheduleWithin(
        due,
        items,
        claims,
        charges,
        quota,
        item.id,
        stored,
        item.dueAt,
        limits.pool,
        Buffer.byteLength(item.payload),
        limits.maxItems,
        limits.maxBytes,
      ),
    );
  }

  async cancel(queue: string, id: string): Promise<boolean> {
    const { due, items, claims, charges, quota } = this.keys.queue(queue);
    return (await this.redis.coordCancel(due, items, claims, charges, quota, id)) > 0;
  }

  async getScheduled(queue: string, id: string): Promise<ScheduledItem | undefined> {
    const stored = await this.redis.hget(this.keys.queue(queue).items, id);
    return stored === null ? undefined : { id, ...StoredItem.parse(JSON.parse(stored)) };
  }

  async claimDue(queue: string, now: number, limit: number, leaseMs: number): Promise<ClaimedItem[]> {
    checkClaim(now, limit, leaseMs);
    const { due, items, claims } = this.keys.queue(queue);
    const flat = await this.redis.coordClaimDue(
      due,
      items,
      claims,
      now,
      limit,
      now + leaseMs,
      claimTokenSeed(),
    );
    const claimed: ClaimedItem[] = [];
    for (let i = 0; i < flat.length; i += 3) {
      const id = flat[i];
      const stored = flat[i + 1];
      const claimToken = flat[i + 2];
      if (id === undefined || stored === undefined || claimToken === undefined) break;
      claimed.push({ id, ...StoredItem.parse(JSON.parse(stored)), claimToken });
    }
    return claimed;
  }

  async ack(queue: string, id: string, claimToken: string): Promise<boolean> {
    const { due, items, claims, charges, quota } = this.keys.queue(queue);
    return (await this.redis.coordAck(due, items, claims, charges, quota, id, claimToken)) === 1;
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
    const keys = this.keys.buffer(pool, buffer);
    return AppendOutcomeSchema.parse(
      await this.redis.coordAppend(
        keys.pool,
        keys.items,
        keys.ids,
        keys.meta,
        item.id,
        item.value,
        limits.maxItems,
        limits.maxBytes,
        limits.poolMaxBytes,
        ttlMs,
      ),
    );
  }

  async readBuffer(pool: string, buffer: string, from: number, limit: number): Promise<string[]> {
    checkRange(from, limit);
    return this.redis.lrange(this.keys.buffer(pool, buffer).items, from, from + limit - 1);
  }

  async dropBuffer(pool: string, buffer: string, count?: number): Promise<number> {
    if (count !== undefined) checkDropCount(count);
    const keys = this.keys.buffer(pool, buffer);
    return this.redis.coordDrop(keys.pool, keys.items, keys.ids, keys.meta, count ?? -1);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.redis.publish(this.keys.channel(channel), message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    // After close, a lazily created subscriber connection would never be quit.
    if (this.closing !== undefined) throw new Error('the Redis coordination store is closed');
    const name = this.keys.channel(channel);
    const { first, remove } = this.listeners.add(name, listener);
    const unsubscribe = async () => {
      if (!remove()) return;
      this.subscribed.delete(name);
      // Commands on one connection run in order: a later SUBSCRIBE to this channel still wins.
      await this.subscriber?.unsubscribe(name);
    };
    if (first) {
      this.subscribed.set(
        name,
        this.subscriberConnection()
          .subscribe(name)
          .then(() => undefined),
      );
    }
    try {
      await this.subscribed.get(name);
    } catch (error) {
      await unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  async probe(): Promise<void> {
    await this.redis.ping();
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.listeners.clear();
      this.subscribed.clear();
      await Promise.all([
        quit(this.redis),
        this.subscriber === undefined ? undefined : quit(this.subscriber),
      ]);
    })();
    return this.closing;
  }

  private subscriberConnection(): Redis {
    if (this.subscriber === undefined) {
      this.subscriber = this.watch(this.redis.duplicate(), 'subscriber');
      this.subscriber.on('message', (channel: string, message: string) =>
        this.listeners.dispatch(channel, message),
      );
    }
    return this.subscriber;
  }

  /** ioredis reconnects by itself; without a listener its errors would reach the console instead. */
  private watch(connection: Redis, role: string): Redis {
    connection.on('error', (error: unknown) =>
      this.options.logger.warn({ err: error, role }, 'redis connection error; reconnecting'),
    );
    return connection;
  }
}

/** QUIT lets pending replies arrive; a connection that is not up has nothing to wait for. */
async function quit(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
