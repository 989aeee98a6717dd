import { Injectable } from '@nestjs/common';
import { PeriodicTurnsStore } from '@notify/cache';
import { dueForRecheck } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { SendingDomainRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { SendingDomainChecker } from './sending-domain-checker';

/** How often pending domains are looked up again, across every replica together. */
export const RECHECK_PERIOD_MS = 60_000;
/** Pending domains looked up per period (the oldest checks wait for the next one beyond it). */
export const RECHECK_BATCH = 500;
/** Lookups in flight at once, so a period's checks neither flood the resolver nor take long. */
const CONCURRENT_CHECKS = 8;

/**
 * The periodic re-check: once per RECHECK_PERIOD_MS, whichever replica takes the period's turn
 * looks up every pending domain (of every environment) not looked up during the last period.
 * Answers how many it checked.
 */
@Injectable()
export class RecheckPendingDomainsUseCase {
  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly checker: SendingDomainChecker,
    private readonly turns: PeriodicTurnsStore,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(): Promise<number> {
    const now = this.clock.now();
    if (!(await this.turns.take('sending-domains/recheck', RECHECK_PERIOD_MS, now))) return 0;
    const due = (await this.domains.pending(RECHECK_BATCH)).filter((d) =>
      dueForRecheck(Date.parse(d.lastSync), now, RECHECK_PERIOD_MS / 2),
    );
    for (let at = 0; at < due.length; at += CONCURRENT_CHECKS)
      await Promise.all(
        due
          .slice(at, at + CONCURRENT_CHECKS)
          .map(({ accountId, envId, ...domain }) => this.checker.check({ accountId, envId }, domain)),
      );
    return due.length;
  }
}
