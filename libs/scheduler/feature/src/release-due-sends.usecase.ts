import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus, type OutgoingMessage } from '@notify/bus';
import { COORDINATION, type ClaimedItem, type CoordinationStore } from '@notify/cache';
import { Queues, type SendRequested, sendRequestedSchema } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';
import { parsePayload, toRouter } from './payload';

/** Sends released per claim: one bus publish and as many acks. */
export const RELEASE_BATCH = 500;
/**
 * How long a claim holds a due send: a scheduler that dies holding one lets it come due again
 * after this (another replica releases it; the senders' ledgers make the repeat send nothing).
 */
export const RELEASE_LEASE_MS = 30_000;

/**
 * Releases scheduled sends that are due: each is claimed from the delayed queue (one replica
 * gets it), handed to the router as released (routed now, not held again), and then acknowledged.
 * Whatever dies between the publish and the ack is released again after the lease; the router
 * routes it again and every sender's delivery ledger turns the repeat into nothing, so each send
 * is delivered exactly once.
 */
@Injectable()
export class ReleaseDueSendsUseCase {
  constructor(
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  /** Releases what is due at `now` (at most a batch); answers how many it claimed. */
  async execute(now = Date.now()): Promise<number> {
    const claimed = await this.coordination.claimDue(
      Queues.scheduledSends,
      now,
      RELEASE_BATCH,
      RELEASE_LEASE_MS,
    );
    if (claimed.length === 0) return 0;
    const messages: OutgoingMessage<SendRequested>[] = [];
    const unreadable: ClaimedItem[] = [];
    for (const item of claimed) {
      const parsed = parsePayload(sendRequestedSchema, item.payload);
      if (parsed.success) messages.push(toRouter({ ...parsed.data, released: true }));
      else unreadable.push(item);
    }
    await this.bus.publish(messages);
    for (const item of unreadable)
      this.logger.error({ id: item.id }, 'dropped a scheduled send whose payload does not parse');
    await Promise.all(
      claimed.map((item) => this.coordination.ack(Queues.scheduledSends, item.id, item.claimToken)),
    );
    return claimed.length;
  }
}
