import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { DigestWindowsStore } from '@notify/cache';
import { digestRequest } from '@notify/domain';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import type { Clock } from '@notify/util';
import { toRouter } from './payload';
import { RELEASE_LEASE_MS } from './release-due-sends.usecase';

/** Digests released per claim (each holds at most MAX_DIGEST_ITEMS sends and its window's bytes). */
export const DIGEST_BATCH = 50;

/**
 * Releases digests whose window has closed: each is claimed (one replica gets it), its held sends
 * are read a page at a time and go to the router as one digest send, then what was read is dropped
 * and the claim acknowledged; sends held meanwhile stay for another digest. A held send that does
 * not parse is left out (and logged), never the whole digest. A scheduler that dies before the ack
 * leaves it to another after the lease; the digest's tracking id (its first send's) makes the
 * senders' ledgers send it once, and a window already dropped releases nothing.
 */
@Injectable()
export class ReleaseDueDigestsUseCase {
  constructor(
    private readonly windows: DigestWindowsStore,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.windows.claimDue(now, DIGEST_BATCH, RELEASE_LEASE_MS);
    for (const claim of claimed) {
      const { due } = claim;
      if (due !== undefined) {
        const { items, unreadable } = await this.windows.read(due, due.key);
        if (unreadable > 0)
          this.logger.error(
            { id: claim.id, unreadable },
            'left out held sends of a digest that do not parse',
          );
        const request = digestRequest(due, items);
        if (request !== undefined) await this.bus.publish([toRouter(request)]);
        const late = await this.windows.drop(due, due.key, items.length + unreadable);
        // Sends the router held while this digest went out make one more, at once (the entry,
        // scheduled anew, is no longer this claim's, so the ack below leaves it).
        if (late > 0) await this.windows.releaseAgain(claim, now);
      } else this.logger.error({ id: claim.id }, 'dropped a digest whose queue entry does not parse');
      await this.windows.ack(claim);
    }
    return claimed.length;
  }
}
