import { Injectable } from '@nestjs/common';
import { dueForRecheck, RECHECK_ON_READ_MS, type TenantScope } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { SendingDomainRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { SendingDomainChecker } from './sending-domain-checker';
import { sendingDomainView, type SendingDomainView } from './sending-domain.view';

/**
 * `GET /domains`: the environment's sending domains, in domain order. A pending domain not
 * looked up in the last RECHECK_ON_READ_MS is looked up again first, so a reader sees a record
 * they just published without waiting for the periodic re-check.
 */
@Injectable()
export class ListSendingDomainsUseCase {
  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly checker: SendingDomainChecker,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(scope: TenantScope): Promise<SendingDomainView[]> {
    const now = this.clock.now();
    const domains = await Promise.all(
      (await this.domains.list(scope)).map(async (domain) =>
        domain.status === 'PENDING' && dueForRecheck(Date.parse(domain.lastSync), now, RECHECK_ON_READ_MS)
          ? this.checker.check(scope, domain)
          : domain,
      ),
    );
    return domains.map((domain) => sendingDomainView(domain, this.config.email.spfInclude));
  }
}
