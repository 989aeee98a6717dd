import { type GroupCommit, lmdbGroupCommit, type Logger, lockDataDir, openLmdb } from '@notify/platform';
import type { Database, RootDatabase } from 'lmdb';
import {
  deadLetterTopic,
  type EventBus,
  type MessageHeaders,
  type OutgoingMessage,
  REPLAY_GROUP,
  replayHeaders,
  type Subscription,
  type SubscriptionOptions,
} from '../event-bus.port';
import {
  type DeadLetter,
  deadLetterHeaders,
  outgoingHeaders,
  processBatch,
  type RawMessage,
} from '../message-processor';
import { AbortedError, sleep } from '../retry';

import { partitionFor } from './partitioner';

interface StoredMessage {
  readonly k: string;
  readonly v: string;
  readonly h: Record<string, string>;
  readonly t: number;
}

type MessageKey = [topic: string, partition: number, offset: number];
type OffsetKey = [group: string, topic: string, partition: number];

export interface EmbeddedBusOptions {
  /** Directory of the bus's log (created if missing; one process at a time). */
  readonly path: string;
  readonly partitions: number;
  readonly logger: Logger;
  readonly maxBatchSize?: number;
  readonly pruneIntervalMs?: number;
}

const DEFAULT_BATCH = 500;
const ERROR_PAUSE_MS = 1_000;

/**
 * The in-process bus with Kafka's semantics, persisted in an LMDB log under the data directory:
 * keyed partitions (order per key), consumer groups sharing partitions, offsets committed after the
 * handler succeeds, retries and dead-lettering (shared with the Kafka adapter), and redelivery of
 * uncommitted messages after the process restarts. An accepted send survives a crash of the
 * all-in-one process, as it would survive a crashed service in a cluster.
 */
export class EmbeddedBus implements EventBus {
  private readonly root: RootDatabase;
  private readonly messages: Database<StoredMessage, MessageKey>;
  private readonly offsets: Database<number, OffsetKey>;
  private readonly heads: Database<number, [string, number]>;
  private readonly topics: Database<number, string>;
  private readonly nextOffset = new Map<string, number>();
  /** Read once from LMDB, then kept here: this process is the only writer of the directory. */
  private readonly committedOffsets = new Map<string, number>();
  private readonly partitionCounts = new Map<string, number>();
  private readonly writes: GroupCommit;
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly unlock: () => void;
  private readonly pruneTimer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: EmbeddedBusOptions) {
    this.unlock = lockDataDir(options.path);
    this.root = openLmdb(options.path, { maxDbs: 8 });
    this.messages = this.root.openDB<StoredMessage, MessageKey>({ name: 'messages' });
    this.offsets = this.root.openDB<number, OffsetKey>({ name: 'offsets' });
    this.heads = this.root.openDB<number, [string, number]>({ name: 'heads' });
    this.topics = this.root.openDB<number, string>({ name: 'topics' });
    for (const { key, value } of this.heads.getRange()) this.nextOffset.set(slot(key[0], key[1]), value);
    this.pruneTimer = setInterval(() => this.prune(), options.pruneIntervalMs ?? 30_000).unref();
    // Publishes and offset commits of the same moment share one transaction.
    this.writes = lmdbGroupCommit(this.root);
  }

  async ensureTopics(topics: readonly string[]): Promise<void> {
    await Promise.all(topics.flatMap((t) => [this.partitionsOf(t), this.partitionsOf(deadLetterTopic(t))]));
  }

  async publish(messages: readonly OutgoingMessage[]): Promise<void> {
    await this.append(
      messages.map((m) => ({
        topic: m.topic,
        key: m.key,
        value: JSON.stringify(m.value),
        headers: outgoingHeaders(m.headers),
      })),
    );
  }

  async subscribe<T>(options: SubscriptionOptions<T>): Promise<Subscription> {
    this.assertOpen();
    await this.ensureTopics([options.topic]);
    const id = `${options.group}\u0000${options.topic}`;
    let group = this.groups.get(id);
    if (group === undefined) {
      group = new ConsumerGroup(this, options.group, options.topic, await this.partitionsOf(options.topic));
      this.groups.set(id, group);
    }
    const member = group.join(options);
    return { close: () => group.leave(member) };
  }

  async replayDeadLetters(topic: string): Promise<number> {
    await this.ensureTopics([topic]);
    const letters = deadLetterTopic(topic);
    let moved = 0;
    for (let partition = 0; partition < (await this.partitionsOf(letters)); partition++) {
      for (;;) {
        const batch = this.fetch(
          letters,
          partition,
          this.committed(REPLAY_GROUP, letters, partition),
          DEFAULT_BATCH,
        );
        const last = batch.at(-1);
        if (last === undefined) break;
        await this.append(
          batch.map((m) => ({
            topic,
            key: m.key,
            value: m.value,
            headers: replayHeaders(m.headers, partition, m.offset),
          })),
        );
        await this.commit(REPLAY_GROUP, letters, partition, Number(last.offset) + 1);
        moved += batch.length;
      }
    }
    return moved;
  }

  async probe(): Promise<void> {
    this.assertOpen();
    this.topics.get('');
  }

  async drain(): Promise<void> {
    await Promise.all([...this.groups.values()].map((g) => g.closeAll()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.drain();
    // Closed before the last commits: a publish arriving meanwhile is refused, not left behind.
    this.closed = true;
    await this.writes.close();
    clearInterval(this.pruneTimer);
    for (const set of this.waiters.values()) for (const wake of set) wake();
    await this.root.close();
    this.unlock();
  }

  /** @internal used by consumer groups */
  committed(group: string, topic: string, partition: number): number {
    const id = `${group}\u0000${slot(topic, partition)}`;
    const known = this.committedOffsets.get(id);
    if (known !== undefined) return known;
    const stored = this.offsets.get([group, topic, partition]);
    if (stored !== undefined) this.committedOffsets.set(id, stored);
    return stored ?? this.firstOffset(topic, partition);
  }

  /** @internal shares its commit with the publishes and commits of the same moment. */
  async commit(group: string, topic: string, partition: number, next: number): Promise<void> {
    this.assertOpen();
    await this.writes.add(() => void this.offsets.put([group, topic, partition], next));
    this.committedOffsets.set(`${group}\u0000${slot(topic, partition)}`, next);
  }

  /** @internal */
  fetch(topic: string, partition: number, from: number, limit: number): RawMessage[] {
    const entries = Array.from(
      this.messages.getRange({ start: [topic, partition, from], end: [topic, partition + 1], limit }),
    );
    return entries.map(({ key, value }) => ({
      topic,
      key: value.k,
      value: value.v,
      headers: value.h,
      partition,
      offset: String(key[2]),
      timestamp: value.t,
    }));
  }

  /** @internal resolves on the next publish to the partition, or at shutdown. */
  nextPublish(topic: string, partition: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const id = slot(topic, partition);
      const set = this.waiters.get(id) ?? new Set<() => void>();
      this.waiters.set(id, set);
      const wake = () => {
        set.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      set.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }

  /** @internal */
  async deadLetter(group: string, topic: string, letters: readonly DeadLetter[]): Promise<void> {
    await this.append(
      letters.map((letter) => ({
        topic: deadLetterTopic(topic),
        key: letter.message.key,
        value: letter.message.value,
        headers: deadLetterHeaders(group, letter),
      })),
    );
  }

  get logger(): Logger {
    return this.options.logger;
  }

  get batchSize(): number {
    return this.options.maxBatchSize ?? DEFAULT_BATCH;
  }

  private async append(
    entries: readonly { topic: string; key: string; value: string; headers: MessageHeaders }[],
  ): Promise<void> {
    this.assertOpen();
    const placed: { topic: string; partition: number; stored: StoredMessage }[] = [];
    const now = Date.now();
    for (const entry of entries) {
      placed.push({
        topic: entry.topic,
        partition: partitionFor(entry.key, await this.partitionsOf(entry.topic)),
        stored: { k: entry.key, v: entry.value, h: { ...entry.headers }, t: now },
      });
    }
    // Offsets are assigned inside the transaction, in commit order.
    await this.writes.add(() => {
      for (const { topic, partition, stored } of placed) {
        const id = slot(topic, partition);
        const offset = this.nextOffset.get(id) ?? 0;
        this.nextOffset.set(id, offset + 1);
        void this.messages.put([topic, partition, offset], stored);
        void this.heads.put([topic, partition], offset + 1);
      }
    });
    for (const { topic, partition } of placed) {
      for (const wake of this.waiters.get(slot(topic, partition)) ?? []) wake();
    }
  }

  private async partitionsOf(topic: string): Promise<number> {
    const cached = this.partitionCounts.get(topic);
    if (cached !== undefined) return cached;
    const known = this.topics.get(topic);
    if (known === undefined) await this.topics.put(topic, this.options.partitions);
    const count = known ?? this.options.partitions;
    this.partitionCounts.set(topic, count);
    return count;
  }

  private firstOffset(topic: string, partition: number): number {
    for (const key of this.messages.getKeys({
      start: [topic, partition],
      end: [topic, partition + 1],
      limit: 1,
    })) {
      return key[2];
    }
    return this.nextOffset.get(slot(topic, partition)) ?? 0;
  }

  /** Drops messages every group that reads the topic has committed past. */
  private prune(): void {
    if (this.closed) return;
    const floor = new Map<string, number>();
    for (const { key, value } of this.offsets.getRange()) {
      const id = slot(key[1], key[2]);
      floor.set(id, Math.min(floor.get(id) ?? Number.MAX_SAFE_INTEGER, value));
    }
    void this.root.transaction(() => {
      for (const [id, below] of floor) {
        const [topic, partition] = unslot(id);
        for (const key of this.messages.getKeys({
          start: [topic, partition, 0],
          end: [topic, partition, below],
        })) {
          void this.messages.remove(key);
        }
      }
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the embedded bus is closed');
  }
}

const slot = (topic: string, partition: number) => `${topic}\u0000${partition}`;
const unslot = (id: string): [string, number] => {
  const at = id.lastIndexOf('\u0000');
  return [id.slice(0, at), Number(id.slice(at + 1))];
};

interface Member {
  readonly options: SubscriptionOptions<unknown>;
  readonly workers: Map<number, PartitionWorker>;
}

/** Members of one group on one topic; partitions are dealt round-robin and moved on join/leave. */
class ConsumerGroup {
  private readonly members: Member[] = [];

  constructor(
    private readonly bus: EmbeddedBus,
    private readonly group: string,
    private readonly topic: string,
    private readonly partitions: number,
  ) {}

  join<T>(options: SubscriptionOptions<T>): Member {
    const member: Member = { options: options as SubscriptionOptions<unknown>, workers: new Map() };
    this.members.push(member);
    this.rebalance();
    return member;
  }

  async leave(member: Member): Promise<void> {
    const index = this.members.indexOf(member);
    if (index < 0) return;
    this.members.splice(index, 1);
    await Promise.all([...member.workers.values()].map((w) => w.stop()));
    member.workers.clear();
    this.rebalance();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.members].map((m) => this.leave(m)));
  }

  private rebalance(): void {
    if (this.members.length === 0) return;
    for (let partition = 0; partition < this.partitions; partition++) {
      const owner = this.members[partition % this.members.length];
      if (owner === undefined || owner.workers.has(partition)) continue;
      const previous = this.members.find((m) => m !== owner && m.workers.has(partition));
      const handover = previous?.workers.get(partition)?.stop() ?? Promise.resolve();
      previous?.workers.delete(partition);
      const worker = new PartitionWorker(this.bus, this.group, this.topic, partition, owner.options);
      owner.workers.set(partition, worker);
      // The new owner starts only after the previous one finished its batch: one reader per partition.
      void handover.then(() => worker.start());
    }
  }
}

class PartitionWorker {
  private readonly controller = new AbortController();
  private done: Promise<void> = Promise.resolve();

  constructor(
    private readonly bus: EmbeddedBus,
    private readonly group: string,
    private readonly topic: string,
    private readonly partition: number,
    private readonly options: SubscriptionOptions<unknown>,
  ) {}

  start(): void {
    if (this.controller.signal.aborted) return;
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.done;
  }

  private async loop(): Promise<void> {
    const { signal } = this.controller;
    const limit =
      'maxBatchSize' in this.options ? (this.options.maxBatchSize ?? this.bus.batchSize) : this.bus.batchSize;
    const context = {
      deadLetter: (letters: readonly DeadLetter[]) => this.bus.deadLetter(this.group, this.topic, letters),
      heartbeat: () => Promise.resolve(),
      signal,
      logger: this.bus.logger,
    };
    while (!signal.aborted) {
      const from = this.bus.committed(this.group, this.topic, this.partition);
      const batch = this.bus.fetch(this.topic, this.partition, from, limit);
      const last = batch.at(-1);
      if (last === undefined) {
        await this.bus.nextPublish(this.topic, this.partition, signal);
        continue;
      }
      try {
        await processBatch(batch, this.options, context);
        await this.bus.commit(this.group, this.topic, this.partition, Number(last.offset) + 1);
      } catch (error) {
        if (error instanceof AbortedError) return;
        this.bus.logger.error({ err: error, topic: this.topic, group: this.group }, 'batch failed; retrying');
        await sleep(ERROR_PAUSE_MS, signal).catch(() => undefined);
      }
    }
  }
}
