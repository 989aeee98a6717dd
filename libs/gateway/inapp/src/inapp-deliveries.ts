import { Injectable } from '@nestjs/common';
import { afterMs, DeliveryEventsPublisher } from '@notify/delivery-events';
import type { DeliveryEvent, TenantScope } from '@notify/domain';
import { InAppRepository } from '@notify/store';

/**
 * `inapp_delivered` (spec 2.3): an item is delivered when it is first pushed to an open connection
 * of its user, or first fetched, whichever comes first; logged once however many replicas race.
 */
@Injectable()
export class InAppDeliveries {
  constructor(
    private readonly inbox: InAppRepository,
    private readonly events: DeliveryEventsPublisher,
  ) {}

  async record(scope: TenantScope, userId: string, ids: readonly string[], now = Date.now()): Promise<void> {
    const at = new Date(now).toISOString();
    const events: DeliveryEvent[] = [];
    for (const id of ids) {
      const receivedAt = await this.inbox.markDelivered(scope, userId, id, at);
      if (receivedAt === undefined) continue;
      events.push(
        this.events.event(
          { accountId: scope.accountId, envId: scope.envId, trackingId: id },
          'inapp_delivered',
          { inapp_delivered_at: at, inapp_delivered_after: afterMs(receivedAt, now) },
          'inapp',
          now,
        ),
      );
    }
    if (events.length > 0) await this.events.publish(...events);
  }
}
