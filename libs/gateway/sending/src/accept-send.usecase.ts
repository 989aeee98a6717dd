import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { type NormalizedSend, type SendRequested, sendWarnings, Topics, userKey } from '@notify/domain';
import { type Logger, InjectLogger, ServiceUnavailableError } from '@notify/platform';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '@notify/gateway-auth';

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
 * acks=all), so an accepted send survives any service dying afterwards. Nothing else happens on
 * the request path; routing and delivery follow asynchronously.
 */
@Injectable()
export class AcceptSendUseCase {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
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
    };
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
      throw new ServiceUnavailableError({
        code: 'NOT_ACCEPTED',
        message: 'The send could not be stored durably, so it was not accepted. Nothing will be sent.',
        fix: 'Retry the request.',
      });
    }
    return { trackingId, messages: sendWarnings(send) };
  }
}
