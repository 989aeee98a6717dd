import { Injectable } from '@nestjs/common';
import { dkimRecordName, returnPathHost, type TenantScope, verifySendingDomain } from '@notify/domain';
import { DnsResolver } from '@notify/dns';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { type SendingDomain, SendingDomainRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/**
 * Looks a domain's records up through the resolver port and records where its verification
 * stands (the rule is verifySendingDomain's). Shared by the reads, the add and the periodic re-check.
 */
@Injectable()
export class SendingDomainChecker {
  constructor(
    private readonly dns: DnsResolver,
    private readonly domains: SendingDomainRepository,
    @InjectClock() private readonly clock: Clock,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async check(scope: TenantScope, domain: SendingDomain): Promise<SendingDomain> {
    const [dkim, returnPath] = await Promise.all([
      this.dns.txt(dkimRecordName(domain.domain, domain.selector)),
      domain.returnPathTarget === undefined ? undefined : this.dns.cname(returnPathHost(domain.domain)),
    ]);
    const now = this.clock.now();
    const outcome = verifySendingDomain(
      { ...domain, pendingSince: Date.parse(domain.pendingSince) },
      { dkim, ...(returnPath !== undefined ? { returnPath } : {}) },
      now,
    );
    const checked = await this.domains.recordCheck(scope, domain.domain, domain.pendingSince, {
      status: outcome.status,
      ...(outcome.mailFromStatus !== undefined ? { mailFromStatus: outcome.mailFromStatus } : {}),
      ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      lastSync: new Date(now).toISOString(),
    });
    if (checked !== undefined && checked.status !== domain.status)
      this.logger.info(
        { accountId: scope.accountId, envId: scope.envId, domain: domain.domain, status: checked.status },
        'sending domain checked',
      );
    return checked ?? domain;
  }
}
