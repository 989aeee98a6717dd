import { Injectable } from '@nestjs/common';
import { WebhookAttemptsStore, WebhookDeliveriesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { WebhookEndpointRepository } from '@notify/store';
import { type Clock, ConflictError, NotFoundError } from '@notify/util';
import { webhookNotFound } from './webhook-endpoints';

/**
 * `POST /webhooks/{endpointId}/deliveries/{msgId}/redeliver`: queues a recent delivery again, due
 * at once, as a new delivery (attempt 1 of the retry schedule) with the same payload and `msgId`,
 * so the receiver sees the same `webhook-id`; the dispatcher signs it afresh and posts it through
 * the egress guard to the endpoint's current URL, as it does every delivery.
 */
@Injectable()
export class RedeliverUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly attempts: WebhookAttemptsStore,
    private readonly queue: WebhookDeliveriesStore,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(scope: TenantScope, endpointId: string, msgId: string): Promise<void> {
    if ((await this.endpoints.get(scope, endpointId)) === undefined) throw webhookNotFound();
    const now = this.clock.now();
    const ofMessage = (await this.attempts.recent(scope, endpointId, now)).filter((a) => a.msgId === msgId);
    if (ofMessage.length === 0)
      throw new NotFoundError({
        code: 'DELIVERY_NOT_FOUND',
        message: `There is no recent delivery ${msgId} to this endpoint.`,
        fix: 'List the recent deliveries with GET /webhooks/{endpointId}/deliveries (7 days, 500 attempts).',
      });
    const delivery = ofMessage.find((a) => a.delivery !== undefined)?.delivery;
    if (delivery === undefined)
      throw new ConflictError({
        code: 'PAYLOAD_NOT_KEPT',
        message: `The payload of ${msgId} was too big to keep, so it cannot be sent again.`,
        fix: 'Deliveries with payloads up to 16 KiB can be sent again.',
      });
    const { accountId, envId } = scope;
    await this.queue.schedule([{ ...delivery, accountId, envId, endpointId, msgId, attempts: 0 }], now);
  }
}
