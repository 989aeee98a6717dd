import { Injectable } from '@nestjs/common';
import { PeriodicTurnsStore } from '@notify/cache';
import { dueForRecheck } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { SendingDomainRepository } from '@notify/store';
import { type Clock, eachConcurrently } from '@notify/util';
import { SendingDomainChecker } from './sending-domain-checker';

/** How often pending domains are looked up again, across every replica together. */
export const RECHECK_PERIOD_MS = 60_000;
/** Pending domains looked up per period (the oldest checks wait for the next one beyond it). */
export const RECHECK_BATCH = 500;
/** Lookups in flight at once, so a period's checks neither flood the resolver nor take long. */
const CONCURRENT_CHECKS = 8;

/**
 * The periodic re-check: once per RECHECK_PERIOD_MS, whichever replica takes the period's turn
 * looks up the pending domains (of every environment) not looked up during the last period, the
 * longest unchecked first, CONCURRENT_CHECKS at a time. A tick while this replica's previous run
 * is still going does nothing, so slow lookups never pile up. Answers how many it checked.
 */
@Injectable()
export class RecheckPendingDomainsUseCase {
  private inFlight: Promise<number> | undefined;

  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly checker: SendingDomainChecker,
    private readonly turns: PeriodicTurnsStore,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /** A call while a run is in flight checks nothing: it ends with that run, answering 0. */
  execute(): Promise<number> {
    if (this.inFlight !== undefined)
      return this.inFlight.then(
        () => 0,
        () => 0,
      );
    const run = this.run().finally(() => (this.inFlight = undefined));
    this.inFlight = run;
    return run;
  }

  private async run(): Promise<number> {
    const now = this.clock.now();
    if (!(await this.turns.take('sending-domains/recheck', RECHECK_PERIOD_MS, now))) return 0;
    const due = (await this.domains.pending(RECHECK_BATCH)).filter((d) =>
      dueForRecheck(Date.parse(d.lastSync), now, RECHECK_PERIOD_MS / 2),
    );
    await eachConcurrently(due, CONCURRENT_CHECKS, async ({ accountId, envId, ...domain }) => {
      await this.checker.check({ accountId, envId }, domain, RECHECK_PERIOD_MS / 2);
    });
    return due.length;
  }
}
