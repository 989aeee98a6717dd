import { Injectable } from '@nestjs/common';
import { type WebhookDelivery, WebhookDeliveriesStore } from '@notify/cache';
import {
  type DeliveryEvent,
  type LogField,
  type TenantScope,
  type UserEvent,
  webhookFor,
  type WebhookPayload,
} from '@notify/domain';
import { InjectClock } from '@notify/platform';
import type { Clock } from '@notify/util';
import { EndpointCache } from './endpoint-cache';
import { deliveryId } from './webhook-delivery';
import { WebhookWorker } from './webhook-worker';

/**
 * Turns events into webhook deliveries: each event that calls for a webhook, for each
 * endpoint of its environment that lists the type, becomes one delivery in the durable delayed
 * queue, due at once. The consumer commits only after that, so nothing is lost between the bus
 * and the queue; the worker makes the attempts.
 */
@Injectable()
export class WebhookFanOut {
  constructor(
    private readonly endpoints: EndpointCache,
    private readonly worker: WebhookWorker,
    private readonly queue: WebhookDeliveriesStore,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async deliveryEvents(events: readonly DeliveryEvent[]): Promise<void> {
    const deliveries: WebhookDelivery[] = [];
    for (const event of events) {
      const webhook = webhookFor(event);
      if (webhook === undefined) continue;
      deliveries.push(
        ...(await this.deliveriesOf(event, event.eventId, webhook.payload.eventType, webhook.payload, {
          trackingId: event.trackingId,
          ...(webhook.resField !== undefined ? { resField: webhook.resField } : {}),
          ...(webhook.deliveredField !== undefined ? { deliveredField: webhook.deliveredField } : {}),
        })),
      );
    }
    await this.enqueue(deliveries);
  }

  async userEvent(event: UserEvent, sourceId: string): Promise<void> {
    const payload = {
      eventType: event.eventType,
      channel: event.channel,
      userId: event.userId,
      notificationId: event.notificationId,
      ...(event.subNotificationId !== undefined ? { subNotificationId: event.subNotificationId } : {}),
      ...(event.trackingId !== undefined ? { trackingId: event.trackingId } : {}),
      timestamp: event.timestamp,
    };
    await this.enqueue(
      await this.deliveriesOf(
        event,
        sourceId,
        event.eventType,
        payload,
        event.trackingId !== undefined ? { trackingId: event.trackingId } : {},
      ),
    );
  }

  private async deliveriesOf(
    scope: TenantScope,
    sourceId: string,
    eventType: string,
    payload: WebhookPayload | Record<string, unknown>,
    log: { trackingId?: string; resField?: LogField; deliveredField?: LogField },
  ): Promise<WebhookDelivery[]> {
    const destinations = (await this.endpoints.destinations(scope)).filter((d) => d.events.has(eventType));
    const body = JSON.stringify(payload);
    // One log field per event: it records the primary endpoint's outcome (the default one when it
    // takes the event, else the first by id); the others' outcomes go to the dispatcher's logs.
    const primary =
      destinations.find((d) => d.endpointId === 'events') ??
      [...destinations].sort((a, b) => (a.endpointId < b.endpointId ? -1 : 1))[0];
    return destinations.map((d) => ({
      accountId: scope.accountId,
      envId: scope.envId,
      endpointId: d.endpointId,
      msgId: deliveryId(sourceId, d.endpointId),
      body,
      attempts: 0,
      ...(d === primary ? log : log.trackingId !== undefined ? { trackingId: log.trackingId } : {}),
    }));
  }

  private async enqueue(deliveries: readonly WebhookDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.queue.schedule(deliveries, this.clock.now());
    this.worker.wake();
  }
}
