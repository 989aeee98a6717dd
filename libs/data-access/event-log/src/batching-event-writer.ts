import type { DeliveryEvent } from '@notify/domain';
import type { EventLog } from './event-log.port';

interface Pending {
  readonly events: readonly DeliveryEvent[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export interface BatchingOptions {
  /** Flush at once when this many events are waiting. */
  readonly maxEvents: number;
  /** Otherwise flush this long after the first waiting event. */
  readonly maxDelayMs: number;
}

/**
 * Coalesces appends from concurrent callers (one per bus partition) into few large inserts, as
 * ClickHouse wants: bounded by size and by time. Each caller's promise settles with the insert
 * that carried its events, so the bus commits an offset only once its events are stored.
 */
export class BatchingEventWriter {
  private pending: Pending[] = [];
  private waiting = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing = false;

  constructor(
    private readonly log: EventLog,
    private readonly options: BatchingOptions = { maxEvents: 5_000, maxDelayMs: 100 },
  ) {}

  write(events: readonly DeliveryEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ events, resolve, reject });
      this.waiting += events.length;
      if (this.flushing) return;
      if (this.waiting >= this.options.maxEvents) this.start();
      else this.timer ??= setTimeout(() => this.start(), this.options.maxDelayMs);
    });
  }

  private start(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.flushing) return;
    this.flushing = true;
    void this.drain();
  }

  /** While an insert runs, new writes queue up and go out together in the next one. */
  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        this.waiting = 0;
        try {
          await this.log.append(batch.flatMap((p) => p.events));
          for (const p of batch) p.resolve();
        } catch (error) {
          for (const p of batch) p.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
