import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { ScheduledSendsStore } from '@notify/cache';
import {
  contactWarnings,
  mergeUserFields,
  type NormalizedSend,
  type SendRequested,
  sendWarnings,
  Topics,
  userKey,
} from '@notify/domain';
import { InjectClock, type Logger, InjectLogger } from '@notify/platform';
import { refuseUnownedSmsFrom, SenderNumbers } from '@notify/providers';
import { type Clock, ServiceUnavailableError } from '@notify/util';
import { UserRepository } from '@notify/store';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '@notify/gateway-auth';

/**
 * How long the answer waits for the stored user when the send's `to` lacks a contact a channel
 * asks for: accepting a send needs only the bus, so a slow or absent store costs the warning, never
 * the send.
 */
export const CONTACT_LOOKUP_MS = 300;

/** How long a scheduled send's queued copy waits at most for the bus to take the send. */
const PUBLISH_GRACE_MS = 30_000;

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
 * follow asynchronously; the answer's warnings include channels the send asks for that the user has
 * no contact for (read from the stored user alongside the publish, only when `to` lacks one). A send scheduled for later is also put in the delayed queue first
 * (within its environment's quota), so that the answer's tracking id can be changed or deleted at
 * once; the scheduler releases it at its due time. A send naming an `sms.from` the environment may
 * not send from (see SenderNumbers) is refused at once, with nothing published.
 */
@Injectable()
export class AcceptSendUseCase {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly users: UserRepository,
    private readonly scheduled: ScheduledSendsStore,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
    private readonly senderNumbers: SenderNumbers,
  ) {}

  /** `trackingId`: chosen by the caller when a retry must reuse it (idempotency keys). */
  async execute(
    tenant: Tenant,
    send: NormalizedSend,
    origin: SendOrigin,
    trackingId: string = randomUUID(),
  ): Promise<Accepted> {
    await refuseUnownedSmsFrom(this.senderNumbers, tenant, send);
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
    const contacts = this.contactWarnings(tenant, send, trackingId);
    const dueAt = send.scheduledFor;
    // Until the bus has it, the queued copy may not come due: a release must never reach the
    // router before the send it releases.
    const provisional =
      dueAt === undefined ? undefined : Math.max(dueAt, this.clock.now() + PUBLISH_GRACE_MS);
    if (provisional !== undefined) await this.scheduled.queue(message, provisional);
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
    return { trackingId, messages: [...sendWarnings(send), ...(await contacts)] };
  }

  /**
   * Moves the queued send to its own due time. The send is accepted whatever happens here: if the
   * store fails now, it goes out at most PUBLISH_GRACE_MS late.
   */
  private async dueAt(message: SendRequested, dueAt: number): Promise<void> {
    try {
      await this.scheduled.queue(message, dueAt);
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
      await this.scheduled.cancel(message, message.trackingId);
    } catch (error) {
      this.logger.error(
        { err: error, trackingId: message.trackingId },
        'a scheduled send that was not accepted is still queued: delete it with DELETE /sender/scheduler/{trackingId}',
      );
    }
  }

  /**
   * Channels the send asks for that neither its `to` nor the stored user can be reached on. The
   * store is read only when `to` alone lacks a contact, for at most CONTACT_LOOKUP_MS; past that,
   * or when the read fails, the answer leaves the warning out (the log still records the channel's
   * failure when it routes).
   */
  private async contactWarnings(tenant: Tenant, send: NormalizedSend, trackingId: string): Promise<string[]> {
    if (contactWarnings(send, send.recipient).length === 0) return [];
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), CONTACT_LOOKUP_MS);
    });
    try {
      const stored = await Promise.race([this.users.get(tenant, send.userId), late]);
      if (stored === 'late') return [];
      return contactWarnings(send, mergeUserFields(stored, send.recipient));
    } catch (error) {
      this.logger.warn({ err: error, trackingId }, 'contact warnings left out: the user could not be read');
      return [];
    } finally {
      clearTimeout(timer);
    }
  }
}
