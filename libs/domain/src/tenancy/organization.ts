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

/** The tier's monthly budget in USD (`budget_250` → 250). */
export const budgetUsd = (tier: PlanTier): number => Number(tier.slice('budget_'.length));

/** The next tier up, or undefined at the top. */
export function tierAbove(tier: PlanTier): PlanTier | undefined {
  return PLAN_TIERS[PLAN_TIERS.indexOf(tier) + 1];
}

/** What billing bills an organization as: a budget tier, or free (a fixed monthly allowance of messages). */
export type AccountType = 'free' | PlanTier;

export const SUBSCRIPTION_STATUSES = ['active', 'canceled', 'past_due', 'paused'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const BILLING_STATUSES = ['verified', 'unverified', 'blocked'] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

/**
 * An organization's standing with the payment processor. Absent until billing first touches the
 * organization (POST /billing or a Stripe event); an organization without it is free.
 */
export interface OrganizationBilling {
  readonly accountType?: AccountType;
  readonly stripeCustomerId?: string;
  readonly stripeSubscriptionId?: string;
  readonly subscriptionStatus?: SubscriptionStatus;
  readonly status?: BillingStatus;
  /** A subscription ending at the period's end leaves the organization paid until then. */
  readonly pendingDowngradeAccountType?: 'free';
  readonly pendingDowngradeEffectiveDate?: string;
  /** The account whose owner set billing up (POST /billing): its `autoUpgrade` choice applies. */
  readonly billingAccountId?: string;
  /** The start (YYYY-MM-DD) of the cycle in which billing last moved the organization up a tier by itself. */
  readonly autoUpgradedCycle?: string;
}

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
export interface Organization extends OrganizationBilling {
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

/** A monthly billing cycle: from its start day (inclusive) to the next reset (exclusive), YYYY-MM-DD in UTC. */
export interface BillingCycle {
  readonly start: string;
  readonly end: string;
}

/** The cycle, anchored on `anchor`'s day of the month, that `at` (epoch ms) falls in. */
export function billingCycle(anchor: string, at: number): BillingCycle {
  const end = nextCycleReset(anchor, at);
  const endDate = new Date(`${end}T00:00:00Z`);
  // The reset a month before `end`: the day before `end` lies in the cycle, so its next reset is `end`
  // and the reset before is the one a month earlier, clamped to that month's length.
  const day = new Date(anchor).getUTCDate();
  const year = endDate.getUTCFullYear();
  const month = endDate.getUTCMonth() - 1;
  const start = new Date(
    Date.UTC(year, month, Math.min(day, new Date(Date.UTC(year, month + 1, 0)).getUTCDate())),
  );
  return { start: start.toISOString().slice(0, 10), end };
}
