import { Injectable } from '@nestjs/common';
import { SendingDomainChangesStore } from '@notify/cache';
import { dkimRecordName, returnPathHost, type TenantScope, verifySendingDomain } from '@notify/domain';
import { DnsResolver } from '@notify/dns';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { type SendingDomain, SendingDomainRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/**
 * Looks a domain's records up through the resolver port and records where its verification
 * stands (the rule is verifySendingDomain's). Shared by the reads, the add and the periodic re-check.
 * A check is claimed first (its `lastSync` stamped), so concurrent readers and replicas start one
 * lookup per domain, and a check's answer never overwrites a later check's.
 */
@Injectable()
export class SendingDomainChecker {
  constructor(
    private readonly dns: DnsResolver,
    private readonly domains: SendingDomainRepository,
    private readonly changes: SendingDomainChangesStore,
    @InjectClock() private readonly clock: Clock,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  /**
   * Checks a pending domain not looked up in the last `minAgeMs`; answers the domain as it stands
   * (unchanged when it was not due, or another check is under way).
   */
  async check(scope: TenantScope, domain: SendingDomain, minAgeMs: number): Promise<SendingDomain> {
    const claimedAt = new Date(this.clock.now()).toISOString();
    const claimed = await this.domains.claimCheck(scope, domain.domain, claimedAt, minAgeMs);
    if (claimed === undefined) return domain;
    const [dkim, returnPath] = await Promise.all([
      this.dns.txt(dkimRecordName(claimed.domain, claimed.selector)),
      claimed.returnPathTarget === undefined ? undefined : this.dns.cname(returnPathHost(claimed.domain)),
    ]);
    const outcome = verifySendingDomain(
      { ...claimed, pendingSince: Date.parse(claimed.pendingSince) },
      { dkim, ...(returnPath !== undefined ? { returnPath } : {}) },
      this.clock.now(),
    );
    const checked = await this.domains.recordCheck(scope, claimed.domain, claimed.pendingSince, {
      status: outcome.status,
      ...(outcome.mailFromStatus !== undefined ? { mailFromStatus: outcome.mailFromStatus } : {}),
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      lastSync: claimedAt,
    });
    if (checked === undefined) return (await this.domains.get(scope, claimed.domain)) ?? claimed;
    if (checked.status !== claimed.status || checked.mailFromStatus !== claimed.mailFromStatus) {
      this.logger.info(
        { accountId: scope.accountId, envId: scope.envId, domain: claimed.domain, status: checked.status },
        'sending domain checked',
      );
      await this.changes.announce({ scope, domain: claimed.domain, kind: 'status' });
    }
    return checked;
  }
}
