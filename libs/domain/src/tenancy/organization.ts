import { z } from 'zod';

/** Monthly USD budget tiers an account may choose; billing acts on the tier recorded on the account. */
export const PLAN_TIERS = [
  'budget_20',
  'budget_50',
  'budget_100',
  'budget_250',
  'budget_500',
  'budget_1000',
  'budget_2000',
  'budget_5000',
] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];
export const planTierSchema = z.enum(PLAN_TIERS);

/** The plan an account was created with: its tier, and the account whose saved payment method it copies. */
export interface AccountPlan {
  readonly tier: PlanTier;
  readonly sourceBillingAccountId: string;
}

export const ORGANIZATION_TYPES = ['free', 'paid'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

/**
 * A group of accounts that billing treats as one (allowances and caps). A cap of 0 means no cap:
 * a self-hosted installation without billing refuses nothing for usage.
 */
export interface Organization {
  readonly organizationId: string;
  readonly organizationType: OrganizationType;
  /** The userId of the person who created it (for an organization made for an older account: its oldest owner). */
  readonly creator: string;
  readonly name: string;
  readonly messagesCap: number;
  readonly costCap: number;
  readonly smsCap: number;
  readonly callCap: number;
  /** Whether sends go on past a cap (billed as overage) instead of being refused. */
  readonly allowOverage: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A new organization with the self-hosted defaults: free, no caps, nothing refused for usage. */
export function newOrganization(input: {
  readonly organizationId: string;
  readonly name: string;
  readonly creator: string;
  readonly now: string;
}): Organization {
  return {
    organizationId: input.organizationId,
    organizationType: 'free',
    creator: input.creator,
    name: input.name,
    messagesCap: 0,
    costCap: 0,
    smsCap: 0,
    callCap: 0,
    allowOverage: true,
    createdAt: input.now,
    updatedAt: input.now,
  };
}

/**
 * The organization of an account. Accounts stored before organizations existed name none: theirs
 * is `org_<accountId>`, made on first use under that id, so concurrent first uses make one.
 */
export const organizationIdOf = (account: { readonly accountId: string; readonly organizationId?: string }) =>
  account.organizationId ?? `org_${account.accountId}`;

/**
 * The next day (YYYY-MM-DD, UTC) on which a monthly cycle anchored on `anchor` resets: the anchor's
 * day of the month, or the month's last day when it is shorter. A cycle resets at the start of its
 * day, so on that day the next reset is a month away (and a cycle started today ends next month).
 */
export function nextCycleReset(anchor: string, now: number): string {
  const day = new Date(anchor).getUTCDate();
  const today = new Date(now);
  const onDay = (year: number, month: number) =>
    new Date(Date.UTC(year, month, Math.min(day, new Date(Date.UTC(year, month + 1, 0)).getUTCDate())));
  let reset = onDay(today.getUTCFullYear(), today.getUTCMonth());
  const startOfToday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  if (reset.getTime() <= startOfToday) reset = onDay(today.getUTCFullYear(), today.getUTCMonth() + 1);
  return reset.toISOString().slice(0, 10);
}
