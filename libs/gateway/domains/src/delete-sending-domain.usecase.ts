import { Injectable } from '@nestjs/common';
import { SendingDomainChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { SendingDomainRepository } from '@notify/store';
import { NotFoundError } from '@notify/util';

/** `DELETE /domains/{sender}`: forgets the domain and its key; its mail is no longer signed. */
@Injectable()
export class DeleteSendingDomainUseCase {
  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly changes: SendingDomainChangesStore,
  ) {}

  async execute(scope: TenantScope, domain: string): Promise<{ success: true }> {
    if (!(await this.domains.remove(scope, domain)))
      throw new NotFoundError({
        code: 'DOMAIN_NOT_FOUND',
        message: `${domain} is not a sending domain of this environment.`,
        fix: 'List the sending domains with GET /domains.',
      });
    await this.changes.announce({ scope, domain, kind: 'deleted' });
    return { success: true };
  }
}
