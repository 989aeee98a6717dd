import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { COORDINATION, type CoordinationStore } from '@notify/cache';
import { digestDueSchema, digestItemsSchema, digestRequest, Queues } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';
import { parsePayload, toRouter } from './payload';
import { RELEASE_LEASE_MS } from './release-due-sends.usecase';

/** Digests released per claim (each may hold up to MAX_DIGEST_ITEMS sends). */
export const DIGEST_BATCH = 50;

/**
 * Releases digests whose window has closed: each is claimed (one replica gets it), its held sends
 * go to the router as one digest send, then the claim is acknowledged and the held sends dropped.
 * A scheduler that dies before the ack leaves it to another after the lease; the digest's tracking
 * id (its first send's) makes the senders' ledgers send it once.
 */
@Injectable()
export class ReleaseDueDigestsUseCase {
  constructor(
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async execute(now = Date.now()): Promise<number> {
    const claimed = await this.coordination.claimDue(Queues.digests, now, DIGEST_BATCH, RELEASE_LEASE_MS);
    for (const item of claimed) {
      const due = parsePayload(digestDueSchema, item.payload);
      const items = due.success
        ? parsePayload(digestItemsSchema, (await this.coordination.get(due.data.key)) ?? '[]')
        : undefined;
      if (!due.success || items?.success === false)
        this.logger.error({ id: item.id }, 'dropped a digest whose held sends do not parse');
      const request =
        due.success && items?.success === true ? digestRequest(due.data, items.data) : undefined;
      if (request !== undefined) await this.bus.publish([toRouter(request)]);
      await this.coordination.ack(Queues.digests, item.id, item.claimToken);
      if (due.success) await this.coordination.delete(due.data.key);
    }
    return claimed.length;
  }
}
