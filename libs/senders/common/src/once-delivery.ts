import { Injectable } from '@nestjs/common';
import { type Channel, type DeliveryEvent, type DeliveryJob, logPrefix } from '@notify/domain';
import { DeliveryLedgerStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';

/**
 * Every sender's outer step: a job is delivered at most once however often the bus redelivers it
 * (the ledger), and its outcome is published after it is recorded, so a redelivery re-announces
 * the outcome instead of sending again.
 */
@Injectable()
export class OnceDelivery {
  constructor(
    private readonly ledger: DeliveryLedgerStore,
    private readonly events: DeliveryEventsPublisher,
  ) {}

  /** `deliver` learns whether an earlier attempt may have reached the provider (see Claim). */
  async run(
    channel: Channel,
    job: DeliveryJob,
    deliver: (takeover: boolean) => Promise<DeliveryEvent[]>,
  ): Promise<void> {
    const key = {
      prefix: logPrefix(channel),
      accountId: job.accountId,
      envId: job.envId,
      trackingId: job.trackingId,
    };
    const claim = await this.ledger.claim(key);
    if (claim.kind === 'done') {
      await this.events.publish(...this.forEach(job, claim.events));
      return;
    }
    let outcome: DeliveryEvent[];
    try {
      outcome = await deliver(claim.takeover);
    } catch (error) {
      await this.ledger.release(key);
      throw error;
    }
    await this.ledger.finish(key, outcome);
    await this.events.publish(...this.forEach(job, outcome));
  }

  /** A digest's outcome belongs to every send it holds: the same events on each tracking id. */
  private forEach(job: DeliveryJob, outcome: readonly DeliveryEvent[]): DeliveryEvent[] {
    const copies = (job.alsoFor ?? []).flatMap((trackingId) =>
      outcome.map((e) => this.events.event({ ...e, trackingId }, e.event, e.fields, e.channel, e.time)),
    );
    return [...outcome, ...copies];
  }
}
