import { Injectable } from '@nestjs/common';
import { billingCycle, NO_USAGE, type UsageView, usageView } from '@notify/domain';
import type { Caller } from '@notify/gateway-auth';
import { InjectClock } from '@notify/platform';
import { AccountOrganizations, UsageRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { accountNotFound } from './get-account.usecase';

/** The pingram client's OrganizationUsage. */
export type OrganizationUsage = UsageView & {
  readonly billingCycleStart: string;
  readonly billingCycleEnd: string;
};

/**
 * What the caller's organization used in its current billing cycle (all zeros with billing off:
 * only billing meters).
 */
@Injectable()
export class GetUsageUseCase {
  constructor(
    private readonly organizations: AccountOrganizations,
    private readonly usage: UsageRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(caller: Caller): Promise<OrganizationUsage> {
    const organization = await this.organizations.of(caller.accountId);
    if (organization === undefined) throw accountNotFound(caller.accountId);
    const cycle = billingCycle(organization.createdAt, this.clock.now());
    const usage = await this.usage.get(organization.organizationId, cycle.start);
    return { ...usageView(usage ?? NO_USAGE), billingCycleStart: cycle.start, billingCycleEnd: cycle.end };
  }
}
