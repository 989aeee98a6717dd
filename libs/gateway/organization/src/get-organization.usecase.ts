import { Injectable } from '@nestjs/common';
import { nextCycleReset, type Organization } from '@notify/domain';
import type { Caller } from '@notify/gateway-auth';
import { InjectClock } from '@notify/platform';
import type { Clock } from '@notify/util';
import { accountNotFound } from './get-account.usecase';
import { AccountOrganizations } from '@notify/store';

/** The pingram client's Organization: the stored record and the day its monthly cycle next resets. */
export type OrganizationView = Organization & { readonly anniversaryDate: string };

/** The organization of the account the caller acts in (made now for an account older than organizations). */
@Injectable()
export class GetOrganizationUseCase {
  constructor(
    private readonly organizations: AccountOrganizations,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(caller: Caller): Promise<OrganizationView> {
    const organization = await this.organizations.of(caller.accountId);
    if (organization === undefined) throw accountNotFound(caller.accountId);
    return { ...organization, anniversaryDate: nextCycleReset(organization.createdAt, this.clock.now()) };
  }
}
