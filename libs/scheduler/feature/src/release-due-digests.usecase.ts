import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { COORDINATION, type CoordinationStore, DigestWindows } from '@notify/cache';
import { digestDueSchema, digestRequest, Queues } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';
import { parsePayload, toRouter } from './payload';
import { RELEASE_LEASE_MS } from './release-due-sends.usecase';

/** Digests released per claim (each holds at most MAX_DIGEST_ITEMS sends and its window's bytes). */
export const DIGEST_BATCH = 50;

/**
 * Releases digests whose window has closed: each is claimed (one replica gets it), its held sends
 * are read a page at a time and go to the router as one digest send, then what was read is dropped
 * and the claim acknowledged; sends held meanwhile stay for another digest. A held send that does not parse is left out (and logged), never
 * the whole digest. A scheduler that dies before the ack leaves it to another after the lease;
 * the digest's tracking id (its first send's) makes the senders' ledgers send it once, and a
 * window already dropped releases nothing.
 */
@Injectable()
export class ReleaseDueDigestsUseCase {
  constructor(
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
    private readonly windows: DigestWindows,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async execute(now = Date.now()): Promise<number> {
    const claimed = await this.coordination.claimDue(Queues.digests, now, DIGEST_BATCH, RELEASE_LEASE_MS);
    for (const item of claimed) {
      const due = parsePayload(digestDueSchema, item.payload);
      if (due.success) {
        const { items, unreadable } = await this.windows.read(due.data, due.data.key);
        if (unreadable > 0)
          this.logger.error({ id: item.id, unreadable }, 'left out held sends of a digest that do not parse');
        const request = digestRequest(due.data, items);
        if (request !== undefined) await this.bus.publish([toRouter(request)]);
        const late = await this.windows.drop(due.data, due.data.key, items.length + unreadable);
        // Sends the router held while this digest went out make one more, at once (the entry,
        // scheduled anew, is no longer this claim's, so the ack below leaves it).
        if (late > 0)
          await this.coordination.schedule(Queues.digests, {
            id: item.id,
            dueAt: now,
            payload: item.payload,
          });
      } else this.logger.error({ id: item.id }, 'dropped a digest whose queue entry does not parse');
      await this.coordination.ack(Queues.digests, item.id, item.claimToken);
    }
    return claimed.length;
  }
}
