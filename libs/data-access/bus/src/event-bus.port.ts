import type { ZodType } from 'zod';

export type MessageHeaders = Readonly<Record<string, string>>;

export interface OutgoingMessage<T = unknown> {
  readonly topic: string;
  /** Messages with the same key are delivered to each group in publish order. */
  readonly key: string;
  readonly value: T;
  readonly headers?: MessageHeaders;
}

export interface IncomingMessage<T> {
  readonly topic: string;
  readonly key: string;
  readonly value: T;
  readonly headers: MessageHeaders;
  readonly partition: number;
  readonly offset: string;
  /** Publish time, epoch milliseconds. */
  readonly timestamp: number;
}

export interface RetryPolicy {
  /** Attempts before the message goes to the dead-letter topic (1 = no retry). */
  readonly maxAttempts: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /**
   * How long a message whose handler fails with transient errors (a backend unavailable: see
   * isTransientError) keeps being retried, counted from its first attempt, instead of
   * `maxAttempts`: a MongoDB failover or a Redis restart must not send everything in flight to
   * the dead-letter topic. 0: transient errors count like any other.
   */
  readonly transientWindowMs: number;
}

/** A message given up on, as the dead-letter hook sees it (the payload as published, and why). */
export interface DeadLetterNotice {
  readonly value: string;
  readonly reason: string;
}

interface SubscriptionBase<T> {
  /** Consumer group: each group receives every message; members of a group share partitions. */
  readonly group: string;
  readonly topic: string;
  /** Every payload is validated like an HTTP body; a malformed one is dead-lettered with the reason. */
  readonly schema: ZodType<T>;
  readonly retry?: Partial<RetryPolicy>;
  /** How many keys (per-message mode) or partitions are processed at once. */
  readonly concurrency?: number;
  /**
   * Called once messages are on the dead-letter topic, so the consumer can say what became of
   * them (e.g. log the send as failed). Throwing makes the batch retry, dead-lettering included.
   */
  readonly onDeadLetter?: (letters: readonly DeadLetterNotice[]) => Promise<void>;
}

/** One message at a time per key; different keys run concurrently. */
export interface MessageSubscription<T> extends SubscriptionBase<T> {
  readonly handle: (message: IncomingMessage<T>) => Promise<void>;
}

/**
 * Whole batches (for writers that append in bulk). A failing batch is retried, then split to find
 * the poison message, which alone is dead-lettered.
 */
export interface BatchSubscription<T> extends SubscriptionBase<T> {
  readonly handleBatch: (messages: readonly IncomingMessage<T>[]) => Promise<void>;
  readonly maxBatchSize?: number;
}

export type SubscriptionOptions<T> = MessageSubscription<T> | BatchSubscription<T>;

export interface Subscription {
  /** Stops fetching, lets in-flight handlers finish, commits, and leaves the group. */
  close(): Promise<void>;
}

/**
 * The event bus port. At-least-once: an offset is committed only after its handler succeeded, so a
 * consumer that dies mid-message gets it again after restart. Handlers must be idempotent.
 */
export interface EventBus {
  /** Creates the topics (and their dead-letter topics) if missing. */
  ensureTopics(topics: readonly string[]): Promise<void>;
  /** Resolves once every message is durably stored (Kafka: acks=all). */
  publish(messages: readonly OutgoingMessage[]): Promise<void>;
  subscribe<T>(options: SubscriptionOptions<T>): Promise<Subscription>;
  /**
   * Moves every message on `topic`'s dead-letter topic back onto `topic` (an operator's replay once
   * the cause is fixed), without the dead-letter headers; resolves to how many moved. Progress is
   * committed as it goes, so a second run moves only letters that arrived since.
   */
  replayDeadLetters(topic: string): Promise<number>;
  /**
   * Readiness: resolves when the bus can accept publishes and every subscription is consuming (not
   * waiting to replace a consumer that crashed).
   */
  probe(): Promise<void>;
  /** Stops every subscription after its in-flight work (first step of shutdown; publishing still works). */
  drain(): Promise<void>;
  /** Drains, then closes the producer and connections. */
  close(): Promise<void>;
}

export const EVENT_BUS = Symbol('EVENT_BUS');

export const DEAD_LETTER_SUFFIX = '.dlt';
export const deadLetterTopic = (topic: string) => `${topic}${DEAD_LETTER_SUFFIX}`;

/** Headers the bus itself sets; the dead-letter ones explain why a message was given up on. */
export const BusHeaders = {
  correlationId: 'x-correlation-id',
  deadLetterReason: 'x-dead-letter-reason',
  deadLetterGroup: 'x-dead-letter-group',
  deadLetterAttempts: 'x-dead-letter-attempts',
  originalPartition: 'x-original-partition',
  originalOffset: 'x-original-offset',
  replayedFrom: 'x-replayed-from',
} as const;

/** The consumer group that replays dead letters (its offsets on each `.dlt` topic). */
export const REPLAY_GROUP = 'dead-letter-replay';

/** A dead letter's headers as it goes back onto its topic: the bus's own removed, the origin noted. */
export function replayHeaders(
  headers: MessageHeaders,
  partition: number,
  offset: string,
): Record<string, string> {
  const dropped = new Set<string>([
    BusHeaders.deadLetterReason,
    BusHeaders.deadLetterGroup,
    BusHeaders.deadLetterAttempts,
    BusHeaders.originalPartition,
    BusHeaders.originalOffset,
  ]);
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !dropped.has(name)));
  return { ...kept, [BusHeaders.replayedFrom]: `${partition}/${offset}` };
}
