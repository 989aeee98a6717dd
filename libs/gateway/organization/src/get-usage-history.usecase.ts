import { Injectable } from '@nestjs/common';
import { NO_USAGE, type UsageView, usageView } from '@notify/domain';
import type { Caller } from '@notify/gateway-auth';
import { AccountOrganizations, UsageRepository } from '@notify/store';
import { accountNotFound } from './get-account.usecase';
import { monthsBetween, type UsageHistoryQuery } from './usage.schemas';

/** The pingram client's OrganizationUsageHistory. */
export interface OrganizationUsageHistory {
  readonly items: (UsageView & { readonly yearMonth: string })[];
}

/**
 * The caller's organization's usage per month of the range: each month's item is the billing
 * cycle that starts in it (cycles are monthly, so one per month), zeros for a month without usage.
 */
@Injectable()
export class GetUsageHistoryUseCase {
  constructor(
    private readonly organizations: AccountOrganizations,
    private readonly usage: UsageRepository,
  ) {}

  async execute(caller: Caller, query: UsageHistoryQuery): Promise<OrganizationUsageHistory> {
    const organization = await this.organizations.of(caller.accountId);
    if (organization === undefined) throw accountNotFound(caller.accountId);
    const months = monthsBetween(query.startDate, query.endDate);
    const cycles = await this.usage.list(
      organization.organizationId,
      `${months[0] ?? ''}-01`,
      `${months.at(-1) ?? ''}-31`,
    );
    const byMonth = new Map(cycles.map((cycle) => [cycle.start.slice(0, 7), cycle]));
    return {
      items: months.map((yearMonth) => ({ yearMonth, ...usageView(byMonth.get(yearMonth) ?? NO_USAGE) })),
    };
  }
}
