import type { Logger } from '@notify/platform';
import {
  type Admin,
  type Consumer,
  type IHeaders,
  Kafka,
  type KafkaConfig,
  logLevel,
  type LogEntry,
  Partitioners,
  type Producer,
  type SASLOptions,
} from 'kafkajs';
import {
  deadLetterTopic,
  type EventBus,
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
import { AbortedError } from '../retry';
import { BatchingProducer } from './batching-producer';

export interface KafkaBusOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  readonly topicPrefix: string;
  readonly partitions: number;
  readonly replicationFactor: number;
  readonly ssl?: boolean;
  readonly sasl?: SASLOptions;
  readonly logger: Logger;
  /** Partitions a consumer works on at once (kafkajs `partitionsConsumedConcurrently`). */
  readonly partitionsConsumedConcurrently?: number;
  /** How long the broker waits before handing a silent (dead) member's partitions to others. */
  readonly sessionTimeoutMs?: number;
  /**
   * How a fetch batches: the broker answers once `minBytes` wait on the member's partitions, or
   * after `maxWaitMs`. A message then waits at most `maxWaitMs` longer per hop, and the broker and
   * the consumer do one fetch per batch instead of one per message: at a few hundred messages a
   * second, most of what a message costs them. Without it, a fetch returns at the first byte.
   */
  readonly fetch?: { readonly maxWaitMs: number; readonly minBytes: number };
}

/** Large inline attachments travel inside send requests; the broker's 1 MB default is too small. */
const MAX_MESSAGE_BYTES = String(64 * 1024 * 1024);
const DEFAULT_CHUNK = 500;
const TOPIC_ATTEMPTS = 10;
/** A retriable broker error (e.g. metadata for topics whose leaders are still being elected). */
const racedOnTopics = (error: unknown) => (error as { retriable?: unknown }).retriable === true;

function kafkaLogger(logger: Logger) {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...rest } = log;
      const child = { component: 'kafkajs', ...rest };
      if (level === logLevel.ERROR) logger.error(child, message);
      else if (level === logLevel.WARN) logger.warn(child, message);
      else logger.debug(child, message);
    };
}

function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value)
      ? String(value[0])
      : Buffer.isBuffer(value)
        ? value.toString('utf8')
        : String(value);
  }
  return out;
}

/**
 * Kafka adapter (kafkajs): idempotent producer with acks=all behind a batching queue, topics created
 * with the configured partitions, consumers that commit after their handler succeeds, and the same
 * validation/retry/dead-letter processing as the embedded bus.
 */
export class KafkaBus implements EventBus {
  private readonly kafka: Kafka;
  private readonly admin: Admin;
  private readonly producer: Producer;
  private readonly batching: BatchingProducer;
  private readonly consumers = new Set<KafkaSubscription>();
  private connected: Promise<void> | undefined;

  constructor(private readonly options: KafkaBusOptions) {
    const config: KafkaConfig = {
      clientId: options.clientId,
      brokers: [...options.brokers],
      ssl: options.ssl,
      sasl: options.sasl,
      logLevel: logLevel.WARN,
      logCreator: kafkaLogger(options.logger),
      retry: { initialRetryTime: 100, retries: 8 },
    };
    this.kafka = new Kafka(config);
    this.admin = this.kafka.admin();
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    this.batching = new BatchingProducer(this.producer);
  }

  connect(): Promise<void> {
    this.connected ??= Promise.all([this.admin.connect(), this.producer.connect()]).then(() => undefined);
    return this.connected;
  }

  /**
   * Services starting together race to create the same topics: kafkajs takes "already exists"
   * in its stride, but a client waiting for leaders of topics another one is creating may hear
   * "this server does not host this topic-partition" (retriable). That is retried, with the
   * topics listed again, until every topic exists and has its partitions' metadata: a topic that
   * another service has just created may still be electing leaders, and a consumer subscribing to
   * it then would fail the same way.
   */
  async ensureTopics(topics: readonly string[]): Promise<void> {
    await this.connect();
    const names = topics.flatMap((t) => [this.physical(t), this.physical(deadLetterTopic(t))]);
    for (let attempt = 1; ; attempt++) {
      const existing = new Set(await this.admin.listTopics());
      const missing = names.filter((name) => !existing.has(name));
      try {
        if (missing.length > 0) {
          await this.admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((topic) => ({
              topic,
              numPartitions: this.options.partitions,
              replicationFactor: this.options.replicationFactor,
              configEntries: [{ name: 'max.message.bytes', value: MAX_MESSAGE_BYTES }],
            })),
          });
        }
        await this.admin.fetchTopicMetadata({ topics: names });
        return;
      } catch (error) {
        if (attempt >= TOPIC_ATTEMPTS || !racedOnTopics(error)) throw error;
        this.options.logger.debug(
          { err: error, attempt },
          'topics are being created elsewhere; checking again',
        );
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  async publish(messages: readonly OutgoingMessage[]): Promise<void> {
    await this.connect();
    await this.batching.send(
      messages.map((m) => ({
        topic: this.physical(m.topic),
        message: { key: m.key, value: JSON.stringify(m.value), headers: outgoingHeaders(m.headers) },
      })),
    );
  }

  async subscribe<T>(options: SubscriptionOptions<T>): Promise<Subscription> {
    await this.ensureTopics([options.topic]);
    const subscription = new KafkaSubscription(this, options as SubscriptionOptions<unknown>);
    this.consumers.add(subscription);
    await subscription.start();
    return {
      close: async () => {
        this.consumers.delete(subscription);
        await subscription.close();
      },
    };
  }

  /**
   * Reads the dead-letter topic up to its end as it was when the call started (later letters wait
   * for the next run), republishing each letter to its topic and committing as it goes.
   */
  async replayDeadLetters(topic: string): Promise<number> {
    await this.ensureTopics([topic]);
    const letters = this.physical(deadLetterTopic(topic));
    const groupId = `${this.options.topicPrefix}${REPLAY_GROUP}`;
    const ends = await this.admin.fetchTopicOffsets(letters);
    const [committed] = await this.admin.fetchOffsets({ groupId, topics: [letters] });
    const startOf = (partition: number, low: string) => {
      const done = Number(committed?.partitions.find((p) => p.partition === partition)?.offset ?? -1);
      return Math.max(done, Number(low));
    };
    const remaining = new Map(
      ends
        .filter((e) => startOf(e.partition, e.low) < Number(e.high))
        .map((e) => [e.partition, Number(e.high)]),
    );
    if (remaining.size === 0) return 0;
    let moved = 0;
    const consumer = this.newConsumer(REPLAY_GROUP);
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: letters, fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        consumer
          .run({
            autoCommit: false,
            eachBatchAutoResolve: false,
            eachBatch: async ({ batch, resolveOffset }) => {
              const end = remaining.get(batch.partition);
              const wanted = batch.messages.filter((m) => end !== undefined && Number(m.offset) < end);
              const last = wanted.at(-1);
              if (last === undefined) return;
              await this.batching.send(
                wanted.map((m) => ({
                  topic: this.physical(topic),
                  message: {
                    key: m.key?.toString('utf8') ?? '',
                    value: m.value?.toString('utf8') ?? '',
                    headers: replayHeaders(textHeaders(m.headers), batch.partition, m.offset),
                  },
                })),
              );
              resolveOffset(last.offset);
              const next = Number(last.offset) + 1;
              await consumer.commitOffsets([
                { topic: letters, partition: batch.partition, offset: String(next) },
              ]);
              moved += wanted.length;
              if (end !== undefined && next >= end) remaining.delete(batch.partition);
              if (remaining.size === 0) resolve();
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
    return moved;
  }

  async probe(): Promise<void> {
    await this.connect();
    await this.admin.describeCluster();
    for (const subscription of this.consumers) subscription.assertConsuming();
  }

  async drain(): Promise<void> {
    const consumers = [...this.consumers];
    this.consumers.clear();
    await Promise.all(consumers.map((c) => c.close()));
  }

  async close(): Promise<void> {
    await this.drain();
    await Promise.all([this.producer.disconnect(), this.admin.disconnect()]);
    this.connected = undefined;
  }

  /** @internal */
  newConsumer(group: string): Consumer {
    return this.kafka.consumer({
      groupId: `${this.options.topicPrefix}${group}`,
      allowAutoTopicCreation: false,
      // Also bounds how long shutdown waits on an idle poll.
      maxWaitTimeInMs: this.options.fetch?.maxWaitMs ?? 1_000,
      minBytes: this.options.fetch?.minBytes ?? 1,
      sessionTimeout: this.options.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: Math.min(3_000, Math.floor((this.options.sessionTimeoutMs ?? 30_000) / 3)),
      retry: { initialRetryTime: 200, retries: 10 },
    });
  }

  /** @internal */
  async deadLetter(group: string, letters: readonly DeadLetter[]): Promise<void> {
    await this.batching.send(
      letters.map((letter) => ({
        topic: this.physical(deadLetterTopic(letter.message.topic)),
        message: {
          key: letter.message.key,
          value: letter.message.value,
          headers: deadLetterHeaders(group, letter),
        },
      })),
    );
  }

  /** @internal */
  physical(topic: string): string {
    return `${this.options.topicPrefix}${topic}`;
  }

  /** @internal */
  logical(topic: string): string {
    return topic.startsWith(this.options.topicPrefix) ? topic.slice(this.options.topicPrefix.length) : topic;
  }

  get logger(): Logger {
    return this.options.logger;
  }

  get partitionsConsumedConcurrently(): number {
    return this.options.partitionsConsumedConcurrently ?? this.options.partitions;
  }
}

/**
 * Delays before a fresh consumer replaces one kafkajs gave up on, doubling per crash until the
 * subscription ran a while without one: a message that crashes every consumer must not spin the broker.
 */
const RESTART_INITIAL_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** How long a subscription runs without crashing before its restart delay starts over. */
const CRASH_FREE_MS = 60_000;

/**
 * One subscription's consumer. kafkajs restarts a consumer that crashed on a retriable error by
 * itself, but after any other crash (an error escaping eachBatch that it does not retry, such as a
 * TypeError from a dead-letter hook) it leaves the consumer disconnected for good: the subscription
 * then starts a fresh consumer in the same group, after a growing delay, until it is closed.
 */
class KafkaSubscription {
  private readonly controller = new AbortController();
  private consumer: Consumer;
  /** Crashes in a row (none for CRASH_FREE_MS resets it); sets the delay before the next start. */
  private crashes = 0;
  private lastCrashAt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private restarting: Promise<void> | undefined;
  /** Why the subscription is not consuming, from its crash until a fresh consumer joins the group. */
  private crash: Error | undefined;

  constructor(
    private readonly bus: KafkaBus,
    private readonly options: SubscriptionOptions<unknown>,
  ) {
    this.consumer = this.newConsumer();
  }

  /** Readiness: throws while the subscription waits for (or starts) a replacement consumer. */
  assertConsuming(): void {
    if (this.crash === undefined) return;
    const { group, topic } = this.options;
    throw new Error(`the consumer of ${group} on ${topic} crashed and is restarting: ${this.crash.message}`);
  }

  async start(): Promise<void> {
    const { options, bus, consumer } = this;
    const chunkSize = 'maxBatchSize' in options ? (options.maxBatchSize ?? DEFAULT_CHUNK) : DEFAULT_CHUNK;
    await consumer.connect();
    await consumer.subscribe({ topic: bus.physical(options.topic), fromBeginning: true });
    await consumer.run({
      autoCommit: true,
      autoCommitThreshold: 1,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: bus.partitionsConsumedConcurrently,
      eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning }) => {
        const context = {
          deadLetter: (letters: readonly DeadLetter[]) => bus.deadLetter(options.group, letters),
          heartbeat,
          signal: this.controller.signal,
          logger: bus.logger,
        };
        const raw: RawMessage[] = batch.messages.map((m) => ({
          topic: options.topic,
          key: m.key?.toString('utf8') ?? '',
          value: m.value?.toString('utf8') ?? '',
          headers: textHeaders(m.headers),
          partition: batch.partition,
          offset: m.offset,
          timestamp: Number(m.timestamp),
        }));
        for (let start = 0; start < raw.length && isRunning(); start += chunkSize) {
          const chunk = raw.slice(start, start + chunkSize);
          try {
            await processBatch(chunk, options, context);
          } catch (error) {
            if (error instanceof AbortedError) return;
            throw error;
          }
          const last = chunk.at(-1);
          if (last !== undefined) resolveOffset(last.offset);
          await commitOffsetsIfNecessary();
          // Another partition's progress says nothing of the one that crashed: only a while
          // without crashes does.
          if (performance.now() - this.lastCrashAt > CRASH_FREE_MS) this.crashes = 0;
        }
      },
    });
  }

  async close(): Promise<void> {
    this.controller.abort();
    clearTimeout(this.restartTimer);
    await this.restarting;
    await this.consumer.disconnect();
  }

  private newConsumer(): Consumer {
    const consumer = this.bus.newConsumer(this.options.group);
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart && consumer === this.consumer) this.crashed(payload.error);
    });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      if (consumer === this.consumer) this.crash = undefined;
    });
    return consumer;
  }

  private crashed(error: Error): void {
    if (this.controller.signal.aborted) return;
    this.crash = error;
    this.lastCrashAt = performance.now();
    const delayMs = Math.min(RESTART_MAX_MS, RESTART_INITIAL_MS * 2 ** Math.min(this.crashes, 30));
    this.crashes++;
    const { group, topic } = this.options;
    this.bus.logger.error(
      { err: error, group, topic, crashes: this.crashes, restartInMs: delayMs },
      'consumer crashed and kafkajs will not restart it; starting a fresh one',
    );
    this.restartTimer = setTimeout(() => {
      this.restarting = this.restart();
    }, delayMs);
  }

  /** A fresh consumer whose start fails (the broker unreachable) is given up on like a crash. */
  private async restart(): Promise<void> {
    this.consumer = this.newConsumer();
    try {
      await this.start();
    } catch (error) {
      await this.consumer.disconnect().catch(() => undefined);
      this.crashed(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
