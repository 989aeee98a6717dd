import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { COORDINATION, type CoordinationStore } from '@notify/cache';
import {
  type NormalizedSend,
  Queues,
  ScheduleQuotaExceededError,
  scheduledSendId,
  scheduledSendsQuota,
  type SendRequested,
  sendWarnings,
  Topics,
  userKey,
} from '@notify/domain';
import {
  type AppConfig,
  InjectConfig,
  type Logger,
  InjectLogger,
  ServiceUnavailableError,
} from '@notify/platform';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '@notify/gateway-auth';

/** How long a scheduled send's queued copy waits at most for the bus to take the send. */
const PUBLISH_GRACE_MS = 30_000;

const queueId = (message: SendRequested) =>
  scheduledSendId(message.accountId, message.envId, message.trackingId);

export interface SendOrigin {
  readonly source: SendRequested['source'];
  /** The log's `request` field (see requestSummary). */
  readonly request: string;
  readonly ip?: string;
  readonly agent?: string;
  readonly receivedAt: number;
}

export interface Accepted {
  readonly trackingId: string;
  readonly messages: string[];
}

/**
 * Accepts a send: it is answered with a tracking id only once the bus has durably stored it (Kafka
 * acks=all), so an accepted send survives any service dying afterwards. Routing and delivery
 * follow asynchronously. A send scheduled for later is also put in the delayed queue first
 * (within its environment's quota), so that the answer's tracking id can be changed or deleted at
 * once; the scheduler releases it at its due time.
 */
@Injectable()
export class AcceptSendUseCase {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  /** `trackingId`: chosen by the caller when a retry must reuse it (idempotency keys). */
  async execute(
    tenant: Tenant,
    send: NormalizedSend,
    origin: SendOrigin,
    trackingId: string = randomUUID(),
  ): Promise<Accepted> {
    const message: SendRequested = {
      trackingId,
      accountId: tenant.accountId,
      envId: tenant.envId,
      receivedAt: origin.receivedAt,
      test: tenant.test,
      source: origin.source,
      client: { ip: origin.ip, agent: origin.agent },
      request: origin.request,
      send,
      ...(send.scheduledFor !== undefined ? { queued: true } : {}),
    };
    const dueAt = send.scheduledFor;
    // Until the bus has it, the queued copy may not come due: a release must never reach the
    // router before the send it releases.
    const provisional = dueAt === undefined ? undefined : Math.max(dueAt, Date.now() + PUBLISH_GRACE_MS);
    if (provisional !== undefined) await this.queue(message, provisional);
    try {
      await this.bus.publish([
        {
          topic: Topics.sendRequests,
          key: userKey(tenant.accountId, tenant.envId, send.userId),
          value: message,
        },
      ]);
    } catch (error) {
      this.logger.error({ err: error, trackingId }, 'send not accepted: the bus did not acknowledge it');
      if (provisional !== undefined) await this.unqueue(message);
      throw new ServiceUnavailableError({
        code: 'NOT_ACCEPTED',
        message: 'The send could not be stored durably, so it was not accepted. Nothing will be sent.',
        fix: 'Retry the request.',
      });
    }
    if (dueAt !== undefined && provisional !== dueAt) await this.dueAt(message, dueAt);
    return { trackingId, messages: sendWarnings(send) };
  }

  /** Holds a scheduled send in the delayed queue until `dueAt`; 402 when the environment has no room. */
  private async queue(message: SendRequested, dueAt: number): Promise<void> {
    const { limits } = this.config;
    const outcome = await this.coordination.scheduleWithin(
      Queues.scheduledSends,
      { id: queueId(message), dueAt, payload: JSON.stringify(message) },
      scheduledSendsQuota(message.accountId, message.envId, limits),
    );
    if (outcome !== 'scheduled') throw new ScheduleQuotaExceededError(outcome, limits);
  }

  /**
   * Moves the queued send to its own due time. The send is accepted whatever happens here: if the
   * store fails now, it goes out at most PUBLISH_GRACE_MS late.
   */
  private async dueAt(message: SendRequested, dueAt: number): Promise<void> {
    try {
      await this.queue(message, dueAt);
    } catch (error) {
      this.logger.warn(
        { err: error, trackingId: message.trackingId },
        'a scheduled send keeps its provisional due time',
      );
    }
  }

  /** A send that was not accepted must not go out later: its queued copy goes too. */
  private async unqueue(message: SendRequested): Promise<void> {
    try {
      await this.coordination.cancel(Queues.scheduledSends, queueId(message));
    } catch (error) {
      this.logger.error(
        { err: error, trackingId: message.trackingId },
        'a scheduled send that was not accepted is still queued: delete it with DELETE /sender/scheduler/{trackingId}',
      );
    }
  }
}
