import { Injectable } from '@nestjs/common';
import { InAppFanoutStore } from '@notify/cache';
import { afterMs, DeliveryEventsPublisher } from '@notify/delivery-events';
import { type DeliveryEvent, type InAppFanout, inappItemOf, type InAppJob } from '@notify/domain';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { OnceDelivery } from '@notify/sender-common';
import { InAppRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/**
 * Puts one notification in the user's inbox and announces it to every gateway (the coordination
 * store's pub/sub), which pushes it to the user's open WebSockets and logs `inapp_delivered`. The
 * item is stored before it is announced: a lost announcement costs liveness, never the item, which
 * the next fetch returns.
 */
@Injectable()
export class SendInAppUseCase {
  constructor(
    private readonly once: OnceDelivery,
    private readonly inbox: InAppRepository,
    private readonly events: DeliveryEventsPublisher,
    private readonly fanout: InAppFanoutStore,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  execute(job: InAppJob): Promise<void> {
    return this.once.run('INAPP_WEB', job, () => this.deliver(job));
  }

  private async deliver(job: InAppJob): Promise<DeliveryEvent[]> {
    const now = this.clock.now();
    const item = inappItemOf(job, now);
    await this.inbox.add(job, job.userId, item, job.receivedAt, now);
    const fanout: InAppFanout = { accountId: job.accountId, envId: job.envId, userId: job.userId, item };
    try {
      await this.fanout.publish(fanout);
    } catch (error) {
      this.logger.warn(
        { err: error, trackingId: job.trackingId },
        'in-app notification stored but not announced; the user sees it on the next fetch',
      );
    }
    return [
      this.events.event(
        job,
        'inapp_sent',
        { inapp_sent_at: new Date(now).toISOString(), inapp_sent_after: afterMs(job.receivedAt, now) },
        'inapp',
        now,
      ),
    ];
  }
}
