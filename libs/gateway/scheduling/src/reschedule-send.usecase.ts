import { Injectable } from '@nestjs/common';
import { ScheduledSendsStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { normalizeSend, requestSummary, type SendBody, type TenantScope } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { refuseUnownedSmsFrom, SenderNumbers } from '@notify/providers';
import { type Clock, NotFoundError } from '@notify/util';

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
 * environment's) is 404 SCHEDULE_RESOURCE_NOT_FOUND. A replacement naming an `sms.from` the
 * environment may not send from is refused as a new send is (400 SMS_FROM_NOT_OWNED).
 */
@Injectable()
export class RescheduleSendUseCase {
  constructor(
    private readonly scheduled: ScheduledSendsStore,
    private readonly events: DeliveryEventsPublisher,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
    private readonly senderNumbers: SenderNumbers,
  ) {}

  /** Replaces the waiting send's body; its `schedule`, when given, replaces the due time (past: now). */
  async update(
    scope: TenantScope & { readonly test: boolean },
    trackingId: string,
    body: SendBody,
  ): Promise<void> {
    const now = this.clock.now();
    const waiting = await this.scheduled.waiting(scope, trackingId);
    if (waiting === undefined) throw notFound(trackingId);
    const send = normalizeSend(body, now, this.config.limits);
    await refuseUnownedSmsFrom(this.senderNumbers, scope, send);
    const dueAt = body.schedule === undefined ? waiting.dueAt : (send.scheduledFor ?? now);
    await this.scheduled.queue(
      { ...waiting.request, request: requestSummary(body), send: { ...send, scheduledFor: dueAt } },
      dueAt,
    );
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

  async delete(scope: TenantScope, trackingId: string): Promise<void> {
    const now = this.clock.now();
    if (!(await this.scheduled.cancel(scope, trackingId))) throw notFound(trackingId);
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
