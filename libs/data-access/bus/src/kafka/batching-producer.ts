import type { Message, Producer, TopicMessages } from 'kafkajs';

interface Pending {
  readonly topic: string;
  readonly message: Message;
  readonly bytes: number;
  readonly done: { resolve: () => void; reject: (error: unknown) => void };
}

const MAX_BATCH_MESSAGES = 2_000;
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * An idempotent producer allows one request in flight per broker, so a send per API call would
 * cap throughput at one round trip per message. Instead, callers queue; while a request is in
 * flight the queue grows, and the next request carries everything queued (up to a size bound).
 * At low load a message goes out at once; under load batches grow by themselves. Each caller's
 * promise settles with the broker's acknowledgement (acks=all) of the batch holding its messages.
 */
export class BatchingProducer {
  private readonly queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly producer: Producer) {}

  send(entries: readonly { topic: string; message: Message }[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    let settled = 0;
    let failed = false;
    return new Promise<void>((resolve, reject) => {
      const done = {
        resolve: () => {
          if (++settled === entries.length && !failed) resolve();
        },
        reject: (error: unknown) => {
          if (!failed) {
            failed = true;
            reject(error);
          }
        },
      };
      for (const { topic, message } of entries) {
        const bytes = (message.value?.length ?? 0) + (message.key?.length ?? 0) + 64;
        this.queue.push({ topic, message, bytes, done });
      }
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.take();
        try {
          await this.producer.sendBatch({ acks: -1, topicMessages: byTopic(batch) });
          for (const entry of batch) entry.done.resolve();
        } catch (error) {
          for (const entry of batch) entry.done.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private take(): Pending[] {
    let bytes = 0;
    let count = 0;
    while (count < this.queue.length && count < MAX_BATCH_MESSAGES) {
      const next = this.queue[count];
      if (next === undefined || (count > 0 && bytes + next.bytes > MAX_BATCH_BYTES)) break;
      bytes += next.bytes;
      count++;
    }
    return this.queue.splice(0, count);
  }
}

function byTopic(batch: readonly Pending[]): TopicMessages[] {
  const topics = new Map<string, Message[]>();
  for (const { topic, message } of batch) {
    const list = topics.get(topic);
    if (list === undefined) topics.set(topic, [message]);
    else list.push(message);
  }
  return [...topics].map(([topic, messages]) => ({ topic, messages }));
}
