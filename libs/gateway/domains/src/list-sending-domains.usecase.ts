import { Injectable } from '@nestjs/common';
import { RECHECK_ON_READ_MS, type TenantScope } from '@notify/domain';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { SendingDomainRepository } from '@notify/store';
import { SendingDomainChecker } from './sending-domain-checker';
import { sendingDomainView, type SendingDomainView } from './sending-domain.view';

/**
 * `GET /domains`: the environment's sending domains, in domain order. A pending domain not
 * looked up in the last RECHECK_ON_READ_MS is looked up again first, so a reader sees a record
 * they just published without waiting for the periodic re-check (one lookup per domain however
 * many read at once: the check is claimed).
 */
@Injectable()
export class ListSendingDomainsUseCase {
  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly checker: SendingDomainChecker,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(scope: TenantScope): Promise<SendingDomainView[]> {
    const domains = await Promise.all(
      (await this.domains.list(scope)).map((domain) =>
        domain.status === 'PENDING'
          ? this.checker.check(scope, domain, RECHECK_ON_READ_MS)
          : Promise.resolve(domain),
      ),
    );
    return domains.map((domain) => sendingDomainView(domain, this.config.email.spfInclude));
  }
}
