import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { afterMs, DeliveryEventsPublisher } from '@notify/delivery-events';
import type { DeliveryEvent, InAppItem, TenantScope } from '@notify/domain';
import { InjectClock, InjectLogger, type Logger, Semaphore } from '@notify/platform';
import type { Clock } from '@notify/util';
import { InAppRepository } from '@notify/store';

interface Reached {
  readonly scope: TenantScope;
  readonly userId: string;
  readonly item: Shown;
  readonly at: number;
}

/** What the log needs of an item: its tracking id and its type (the insights count by type). */
type Shown = Pick<InAppItem, 'id' | 'notificationId'>;

/** Items pushed to sockets are recorded after this pause, in batches: sockets are written first. */
const BATCH_DELAY_MS = 50;
const BATCH_SIZE = 500;
/** Store round trips in flight for one batch. */
const CONCURRENCY = 16;

/**
 * `inapp_delivered`: an item is delivered when it is first pushed to an open connection
 * of its user, or first fetched, whichever comes first; logged once however many replicas race.
 * Pushes are recorded in batches off the fan-out path (a broadcast to every socket of a replica
 * writes every frame before any store round trip), fetches before their answer.
 */
@Injectable()
export class InAppDeliveries implements BeforeApplicationShutdown {
  private readonly pending: Reached[] = [];
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly slots = new Semaphore(CONCURRENCY);

  constructor(
    private readonly inbox: InAppRepository,
    private readonly events: DeliveryEventsPublisher,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /** Records items a fetch shows, before the fetch answers. */
  async record(scope: TenantScope, userId: string, items: readonly Shown[], now: number): Promise<void> {
    await this.write(items.map((item) => ({ scope, userId, item, at: now })));
  }

  /** Records an item pushed to a socket, shortly and in a batch. */
  pushed(scope: TenantScope, userId: string, item: Shown): void {
    this.pending.push({ scope, userId, item, at: this.clock.now() });
    this.timer ??= setTimeout(() => this.flush(), BATCH_DELAY_MS);
  }

  /** What is pending is recorded before the process stops. */
  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.flush();
    await this.flushing;
  }

  private flush(): void {
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0, BATCH_SIZE);
    this.flushing = this.flushing
      .then(() => this.write(batch))
      .catch((error: unknown) =>
        this.logger.warn({ err: error, items: batch.length }, 'could not record in-app deliveries'),
      )
      .finally(() => {
        if (this.pending.length > 0) this.timer ??= setTimeout(() => this.flush(), 0);
      });
  }

  private async write(reached: readonly Reached[]): Promise<void> {
    const events: DeliveryEvent[] = [];
    await Promise.all(
      reached.map(({ scope, userId, item, at }) =>
        this.slots.run(async () => {
          const stamp = new Date(at).toISOString();
          const receivedAt = await this.inbox.markDelivered(scope, userId, item.id, stamp);
          if (receivedAt === undefined) return;
          events.push(
            this.events.event(
              {
                accountId: scope.accountId,
                envId: scope.envId,
                trackingId: item.id,
                notificationId: item.notificationId,
              },
              'inapp_delivered',
              { inapp_delivered_at: stamp, inapp_delivered_after: afterMs(receivedAt, at) },
              'inapp',
              at,
            ),
          );
        }),
      ),
    );
    if (events.length > 0) await this.events.publish(...events);
  }
}
