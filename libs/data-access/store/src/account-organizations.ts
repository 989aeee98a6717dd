import { Injectable } from '@nestjs/common';
import { newOrganization, type Organization } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { AccountRepository } from './repositories/account.repository';
import { MembershipRepository } from './repositories/membership.repository';
import { OrganizationRepository } from './repositories/organization.repository';
import type { Clock } from '@notify/util';

/**
 * The organization of an account. One stored before organizations existed gets its own now, named
 * after the account, its oldest owner as creator, with the self-hosted defaults.
 */
@Injectable()
export class AccountOrganizations {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly accounts: AccountRepository,
    private readonly memberships: MembershipRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /** Undefined when there is no such account. */
  of(accountId: string): Promise<Organization | undefined> {
    return this.organizations.ensureForAccount(accountId, async (organizationId) => {
      const [account, members] = await Promise.all([
        this.accounts.getAccount(accountId),
        this.memberships.listByAccount(accountId),
      ]);
      const byAge = [...members].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      const creator = byAge.find((m) => m.role === 'owner') ?? byAge[0];
      return newOrganization({
        organizationId,
        name: account?.name ?? accountId,
        creator: creator?.userId ?? '',
        now: new Date(this.clock.now()).toISOString(),
      });
    });
  }
}
