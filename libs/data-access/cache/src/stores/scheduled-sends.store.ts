import {
  type ScheduledSendLimits,
  ScheduleQuotaExceededError,
  scheduledSendId,
  scheduledSendsQuota,
  type SendRequested,
  sendRequestedSchema,
  type TenantScope,
  Queues,
} from '@notify/domain';
import type { CoordinationStore } from '../cache.port';

/** A due send claimed for release; `request` is missing when its payload does not parse. */
export interface ClaimedSend {
  readonly id: string;
  readonly claimToken: string;
  readonly request?: SendRequested;
}

/**
 * Sends held until a due time in the scheduled-sends delayed queue, one entry per tracking id of
 * an environment: queued by the gateway (within the environment's quota) or held by the router,
 * changed or cancelled while they wait, and claimed by the scheduler when due.
 */
export class ScheduledSendsStore {
  constructor(
    private readonly coordination: CoordinationStore,
    private readonly limits: ScheduledSendLimits,
  ) {}

  /**
   * Queues (or replaces) the send until `dueAt`, counted against its environment's share of the
   * queue; throws ScheduleQuotaExceededError (402), changing nothing, when it has no room.
   */
  async queue(request: SendRequested, dueAt: number): Promise<void> {
    const outcome = await this.coordination.scheduleWithin(
      Queues.scheduledSends,
      { id: idOf(request, request.trackingId), dueAt, payload: JSON.stringify(request) },
      scheduledSendsQuota(request.accountId, request.envId, this.limits),
    );
    if (outcome !== 'scheduled') throw new ScheduleQuotaExceededError(outcome, this.limits);
  }

  /** Holds the send until `dueAt` outside any quota (what routing holds, such as for quiet hours). */
  hold(request: SendRequested, dueAt: number): Promise<void> {
    return this.coordination.schedule(Queues.scheduledSends, {
      id: idOf(request, request.trackingId),
      dueAt,
      payload: JSON.stringify(request),
    });
  }

  /** The send still waiting under this tracking id, if any (one whose payload does not parse is none). */
  async waiting(
    scope: TenantScope,
    trackingId: string,
  ): Promise<{ request: SendRequested; dueAt: number } | undefined> {
    const item = await this.coordination.getScheduled(Queues.scheduledSends, idOf(scope, trackingId));
    const request = item === undefined ? undefined : parse(item.payload);
    return item === undefined || request === undefined ? undefined : { request, dueAt: item.dueAt };
  }

  /** Removes the waiting send; false when none was waiting. */
  cancel(scope: TenantScope, trackingId: string): Promise<boolean> {
    return this.coordination.cancel(Queues.scheduledSends, idOf(scope, trackingId));
  }

  /** Claims up to `limit` sends due at `now`, for `leaseMs` (unacknowledged, they come due again). */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<ClaimedSend[]> {
    const claimed = await this.coordination.claimDue(Queues.scheduledSends, now, limit, leaseMs);
    return claimed.map(({ id, claimToken, payload }) => {
      const request = parse(payload);
      return request === undefined ? { id, claimToken } : { id, claimToken, request };
    });
  }

  /** The claimed send left the queue (a stale claim changes nothing). */
  async ack(claim: ClaimedSend): Promise<void> {
    await this.coordination.ack(Queues.scheduledSends, claim.id, claim.claimToken);
  }
}

const idOf = (scope: TenantScope, trackingId: string) =>
  scheduledSendId(scope.accountId, scope.envId, trackingId);

function parse(payload: string): SendRequested | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const parsed = sendRequestedSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
