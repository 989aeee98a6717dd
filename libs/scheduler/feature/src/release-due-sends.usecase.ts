import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { ScheduledSendsStore } from '@notify/cache';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import type { Clock } from '@notify/util';
import { toRouter } from './payload';

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
    private readonly scheduled: ScheduledSendsStore,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /** Releases what is due now (at most a batch); answers how many it claimed. */
  async execute(): Promise<number> {
    const claimed = await this.scheduled.claimDue(this.clock.now(), RELEASE_BATCH, RELEASE_LEASE_MS);
    if (claimed.length === 0) return 0;
    await this.bus.publish(
      claimed.flatMap(({ request }) =>
        request === undefined ? [] : [toRouter({ ...request, released: true })],
      ),
    );
    for (const item of claimed)
      if (item.request === undefined)
        this.logger.error({ id: item.id }, 'dropped a scheduled send whose payload does not parse');
    await Promise.all(claimed.map((item) => this.scheduled.ack(item)));
    return claimed.length;
  }
}
