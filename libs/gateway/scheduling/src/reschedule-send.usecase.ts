import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  normalizeSend,
  Queues,
  requestSummary,
  ScheduleQuotaExceededError,
  scheduledSendsQuota,
  type SendBody,
  sendRequestedSchema,
  scheduledSendId,
  type TenantScope,
} from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { NotFoundError } from '@notify/util';

const notFound = (trackingId: string) =>
  new NotFoundError({
    code: 'SCHEDULE_RESOURCE_NOT_FOUND',
    message: `No scheduled notification ${trackingId} is waiting in this environment.`,
    fix: 'Use the trackingId of a send with a future schedule that has not been sent or deleted.',
  });

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Changes or cancels a scheduled send that is still waiting: what the delayed queue
 * holds is replaced (within the environment's quota: 402 SCHEDULE_QUOTA_EXCEEDED) or removed, and
 * the send's log records it. A send already released (or never scheduled, or another
 * environment's) is 404 SCHEDULE_RESOURCE_NOT_FOUND.
 */
@Injectable()
export class RescheduleSendUseCase {
  constructor(
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Replaces the waiting send's body; its `schedule`, when given, replaces the due time (past: now). */
  async update(scope: TenantScope, trackingId: string, body: SendBody, now = Date.now()): Promise<void> {
    const id = scheduledSendId(scope.accountId, scope.envId, trackingId);
    const waiting = await this.coordination.getScheduled(Queues.scheduledSends, id);
    const earlier =
      waiting === undefined ? undefined : sendRequestedSchema.safeParse(JSON.parse(waiting.payload));
    if (waiting === undefined || earlier === undefined || !earlier.success) throw notFound(trackingId);
    const send = normalizeSend(body, now, this.config.limits);
    const dueAt = body.schedule === undefined ? waiting.dueAt : (send.scheduledFor ?? now);
    const request = {
      ...earlier.data,
      request: requestSummary(body),
      send: { ...send, scheduledFor: dueAt },
    };
    const { limits } = this.config;
    const outcome = await this.coordination.scheduleWithin(
      Queues.scheduledSends,
      { id, dueAt, payload: JSON.stringify(request) },
      scheduledSendsQuota(scope.accountId, scope.envId, limits),
    );
    if (outcome !== 'scheduled') throw new ScheduleQuotaExceededError(outcome, limits);
    await this.events.publish(
      this.events.event(
        { ...scope, trackingId },
        'schedule_updated',
        { schedule_updated_at: iso(now), schedule_updated_to: iso(dueAt) },
        undefined,
        now,
      ),
    );
  }

  async delete(scope: TenantScope, trackingId: string, now = Date.now()): Promise<void> {
    const cancelled = await this.coordination.cancel(
      Queues.scheduledSends,
      scheduledSendId(scope.accountId, scope.envId, trackingId),
    );
    if (!cancelled) throw notFound(trackingId);
    await this.events.publish(
      this.events.event(
        { ...scope, trackingId },
        'schedule_deleted',
        { schedule_deleted_at: iso(now) },
        undefined,
        now,
      ),
    );
  }
}
