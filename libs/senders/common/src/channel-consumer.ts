import { type Channel, Groups, type LogFields, logPrefix, Topics } from '@notify/domain';
import type { EventBus } from '@notify/bus';
import type { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { AppConfig } from '@notify/platform';
import type { z } from 'zod';

export interface ChannelConsumer<T> {
  readonly channel: Channel;
  readonly schema: z.ZodType<T>;
  /** Jobs handled at once by one replica (each a provider call in flight). */
  readonly concurrency: number;
  /** The `<prefix>_failed_*` fields of a job given up on (`at`, and why). */
  readonly gaveUp: (at: string, why: string) => LogFields;
  readonly handle: (job: T) => Promise<void>;
}

/**
 * Subscribes a sender to its channel's topic (group `sender-<channel>`). A job held by a live
 * sender elsewhere, or whose backends are down, is retried for CONSUMER_RETRY_WINDOW_MS (so a job
 * a killed sender held is delivered by another once the ledger hands its claim over); one given
 * up on is logged as failed and waits on the dead-letter topic for a replay.
 */
export async function consumeChannel<T>(
  bus: EventBus,
  events: DeliveryEventsPublisher,
  config: AppConfig,
  consumer: ChannelConsumer<T>,
): Promise<void> {
  const topic = Topics.delivery(consumer.channel);
  const prefix = logPrefix(consumer.channel);
  await bus.ensureTopics([topic, Topics.events]);
  await bus.subscribe({
    group: Groups.sender(consumer.channel),
    topic,
    schema: consumer.schema,
    concurrency: consumer.concurrency,
    retry: {
      maxAttempts: 5,
      initialBackoffMs: 250,
      maxBackoffMs: 5_000,
      transientWindowMs: config.consumers.retryWindowMs,
    },
    onDeadLetter: (letters) => events.deadLettered(letters, `${prefix}_failed`, consumer.gaveUp, prefix),
    handle: (message) => consumer.handle(message.value),
  });
}
