import {
  currentCorrelationId,
  isTransientError,
  type Logger,
  validationMessage,
  withCorrelationId,
} from '@notify/platform';
import { eachConcurrently } from '@notify/util';
import { type ZodType } from 'zod';
import {
  BusHeaders,
  type IncomingMessage,
  type MessageHeaders,
  type RetryPolicy,
  type SubscriptionOptions,
} from './event-bus.port';
import { AbortedError, backoffMs, DEFAULT_RETRY, sleep } from './retry';
import { injectTraceContext, withConsumerSpan } from './tracing';

/** A message as an adapter fetched it, before decoding. */
export interface RawMessage {
  readonly topic: string;
  readonly key: string;
  readonly value: string;
  readonly headers: MessageHeaders;
  readonly partition: number;
  readonly offset: string;
  readonly timestamp: number;
}

export interface DeadLetter {
  readonly message: RawMessage;
  readonly reason: string;
  readonly attempts: number;
}

/** What an adapter lends the processor: where dead letters go, and how to stay in the group. */
export interface ProcessorContext {
  readonly deadLetter: (letters: readonly DeadLetter[]) => Promise<void>;
  /** Called between retries so a broker does not think a slow consumer died. */
  readonly heartbeat: () => Promise<void>;
  /** Aborted when the consumer shuts down: retries stop and the batch stays uncommitted. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

const DEFAULT_KEY_CONCURRENCY = 16;

/** Headers for an outgoing message: the caller's, the current correlation id and trace context. */
export function outgoingHeaders(headers: MessageHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  const correlationId = currentCorrelationId();
  if (correlationId !== undefined && out[BusHeaders.correlationId] === undefined)
    out[BusHeaders.correlationId] = correlationId;
  injectTraceContext(out);
  return out;
}

/** The headers a dead letter carries: the original ones, and why and where it was given up on. */
export function deadLetterHeaders(
  group: string,
  { message, reason, attempts }: DeadLetter,
): Record<string, string> {
  return {
    ...message.headers,
    [BusHeaders.deadLetterReason]: reason,
    [BusHeaders.deadLetterGroup]: group,
    [BusHeaders.deadLetterAttempts]: String(attempts),
    [BusHeaders.originalPartition]: String(message.partition),
    [BusHeaders.originalOffset]: message.offset,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function decode<T>(raw: RawMessage, schema: ZodType<T>): { ok: IncomingMessage<T> } | { reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw.value);
  } catch (error) {
    return { reason: `payload is not JSON: ${errorText(error)}` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { reason: `payload failed validation: ${validationMessage(parsed.error)}` };
  const { value: _raw, ...meta } = raw;
  return { ok: { ...meta, value: parsed.data } };
}

/**
 * Runs one fetched batch (from one partition) through a subscription's handler: validation, per-key
 * ordering, retries with backoff, and dead-lettering. Resolves when every message is either handled
 * or dead-lettered, so the adapter may commit the batch; rejects with AbortedError on shutdown.
 */
export async function processBatch<T>(
  batch: readonly RawMessage[],
  options: SubscriptionOptions<T>,
  context: ProcessorContext,
): Promise<void> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const valid: IncomingMessage<T>[] = [];
  const rawByOffset = new Map<string, RawMessage>();
  const invalid: DeadLetter[] = [];
  for (const raw of batch) {
    const decoded = decode(raw, options.schema);
    if ('ok' in decoded) {
      valid.push(decoded.ok);
      rawByOffset.set(raw.offset, raw);
    } else {
      invalid.push({ message: raw, reason: decoded.reason, attempts: 0 });
    }
  }
  const deadLetter = async (letters: readonly DeadLetter[]) => {
    await context.deadLetter(letters);
    await options.onDeadLetter?.(letters.map((l) => ({ value: l.message.value, reason: l.reason })));
  };
  if (invalid.length > 0) {
    context.logger.warn(
      { topic: options.topic, group: options.group, count: invalid.length },
      'dead-lettering invalid messages',
    );
    await deadLetter(invalid);
  }
  if (valid.length === 0) return;

  const retrying = new Retrier(policy, context, options.topic, options.group);
  const giveUp = async (messages: readonly IncomingMessage<T>[], failure: Failure) => {
    context.logger.error(
      {
        topic: options.topic,
        group: options.group,
        err: failure.error,
        offsets: messages.map((m) => m.offset),
      },
      'handler failed after retries; dead-lettering',
    );
    await deadLetter(
      messages.map((m) => ({
        message: rawByOffset.get(m.offset) ?? { ...m, value: JSON.stringify(m.value) },
        reason: `handler failed ${failure.attempts} times: ${errorText(failure.error)}`,
        attempts: failure.attempts,
      })),
    );
  };

  if ('handleBatch' in options) {
    await runBatch(valid, options.handleBatch, retrying, giveUp);
  } else {
    await runPerKey(valid, options.handle, options.concurrency ?? DEFAULT_KEY_CONCURRENCY, retrying, giveUp);
  }
}

/** The last error of a handler given up on, and how many attempts it had. */
interface Failure {
  readonly error: unknown;
  readonly attempts: number;
}

/** Retries logged at warn: the first few, then every tenth (a backend outage is long and loud enough). */
const loudAttempt = (attempt: number) => attempt <= 3 || attempt % 10 === 0;

class Retrier {
  constructor(
    private readonly policy: RetryPolicy,
    private readonly context: ProcessorContext,
    private readonly topic: string,
    private readonly group: string,
  ) {}

  /**
   * Resolves `undefined` on success, or the failure to give up on: a transient error (a backend
   * unavailable) once `transientWindowMs` has passed since the message was first tried, any other
   * after `maxAttempts`.
   */
  async run(headers: MessageHeaders, work: () => Promise<void>): Promise<Failure | undefined> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      if (this.context.signal.aborted) throw new AbortedError();
      try {
        await withCorrelationId(headers[BusHeaders.correlationId], () =>
          withConsumerSpan(this.topic, this.group, headers, work),
        );
        return undefined;
      } catch (error) {
        const outage = isTransientError(error) && this.policy.transientWindowMs > 0;
        const spent = outage
          ? Date.now() - started >= this.policy.transientWindowMs
          : attempt >= this.policy.maxAttempts;
        if (spent) return { error: error ?? new Error('handler failed'), attempts: attempt };
        const fields = { err: error, attempt, topic: this.topic, group: this.group, transient: outage };
        if (loudAttempt(attempt)) this.context.logger.warn(fields, 'handler failed; retrying');
        else this.context.logger.debug(fields, 'handler failed; retrying');
        await this.context.heartbeat();
        await sleep(backoffMs(this.policy, attempt), this.context.signal);
      }
    }
  }
}

async function runPerKey<T>(
  messages: readonly IncomingMessage<T>[],
  handle: (message: IncomingMessage<T>) => Promise<void>,
  concurrency: number,
  retrying: Retrier,
  giveUp: (messages: readonly IncomingMessage<T>[], failure: Failure) => Promise<void>,
): Promise<void> {
  const byKey = new Map<string, IncomingMessage<T>[]>();
  for (const message of messages) {
    const queue = byKey.get(message.key);
    if (queue === undefined) byKey.set(message.key, [message]);
    else queue.push(message);
  }
  await eachConcurrently([...byKey.values()], concurrency, async (queue) => {
    for (const message of queue) {
      const failure = await retrying.run(message.headers, () => handle(message));
      if (failure !== undefined) await giveUp([message], failure);
    }
  });
}

async function runBatch<T>(
  messages: readonly IncomingMessage<T>[],
  handleBatch: (messages: readonly IncomingMessage<T>[]) => Promise<void>,
  retrying: Retrier,
  giveUp: (messages: readonly IncomingMessage<T>[], failure: Failure) => Promise<void>,
): Promise<void> {
  const headers = messages[0]?.headers ?? {};
  const failure = await retrying.run(headers, () => handleBatch(messages));
  if (failure === undefined) return;
  if (messages.length === 1) {
    await giveUp(messages, failure);
    return;
  }
  // Bisect to isolate the message that fails, so the rest of the batch still lands.
  const middle = Math.ceil(messages.length / 2);
  await runBatch(messages.slice(0, middle), handleBatch, retrying, giveUp);
  await runBatch(messages.slice(middle), handleBatch, retrying, giveUp);
}
