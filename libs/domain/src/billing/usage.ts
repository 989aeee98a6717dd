import { PaymentRequiredError } from '@notify/util';
import type { Channel } from '../channels/channel';
import {
  type AccountType,
  budgetUsd,
  type OrganizationBilling,
  PLAN_TIERS,
  type PlanTier,
  tierAbove,
} from '../tenancy/organization';
import { type MeteredItem, type Micros, toMicros, toUsd } from './metering';

/** What an organization used in one billing cycle, money in micros. */
export interface CycleUsage {
  /** Messages that reached a provider, every channel. */
  readonly messages: number;
  readonly costMicros: Micros;
  readonly costSmsMicros: Micros;
  readonly costCallMicros: Micros;
  readonly channels: Readonly<Partial<Record<Channel, number>>>;
}

export const NO_USAGE: CycleUsage = {
  messages: 0,
  costMicros: 0,
  costSmsMicros: 0,
  costCallMicros: 0,
  channels: {},
};

export function addUsage(usage: CycleUsage, items: readonly MeteredItem[]): CycleUsage {
  const channels: Partial<Record<Channel, number>> = { ...usage.channels };
  let { messages, costMicros, costSmsMicros, costCallMicros } = usage;
  for (const item of items) {
    messages += item.messages;
    costMicros += item.costMicros;
    if (item.channel === 'SMS') costSmsMicros += item.costMicros;
    if (item.channel === 'CALL') costCallMicros += item.costMicros;
    if (item.messages > 0) channels[item.channel] = (channels[item.channel] ?? 0) + item.messages;
  }
  return { messages, costMicros, costSmsMicros, costCallMicros, channels };
}

/**
 * Usage as the API answers it, in USD. `messageUsage` is pingram's "EMAIL + INAPP_WEB + WEB_PUSH +
 * PUSH + SLACK": SMS and calls are counted in `channelUsages` and priced in `costSms`/`costCall`.
 * `budgetUsage` is everything the cycle cost (SMS, calls and the per-message prices of the other
 * channels); number rent is not metered, so `costNumber` is 0.
 */
export interface UsageView {
  readonly messageUsage: number;
  readonly budgetUsage: number;
  readonly costSms: number;
  readonly costCall: number;
  readonly costNumber: number;
  readonly channelUsages: Readonly<Record<string, number>>;
}

/** Channels pingram's `messageUsage` leaves out. */
const PRICED_ONLY: ReadonlySet<string> = new Set<Channel>(['SMS', 'CALL']);

export const usageView = (usage: CycleUsage): UsageView => ({
  messageUsage: Object.entries(usage.channels)
    .filter(([channel]) => !PRICED_ONLY.has(channel))
    .reduce((sum, [, messages]) => sum + messages, 0),
  budgetUsage: toUsd(usage.costMicros),
  costSms: toUsd(usage.costSmsMicros),
  costCall: toUsd(usage.costCallMicros),
  costNumber: 0,
  channelUsages: { ...usage.channels },
});

/** How much an organization may use per cycle. */
export type Allowance =
  | { readonly kind: 'unlimited' }
  | { readonly kind: 'messages'; readonly max: number }
  | { readonly kind: 'budget'; readonly maxMicros: Micros };

export interface BillingTerms {
  /** Billing on (a payment processor configured): without it nobody is limited. */
  readonly enabled: boolean;
  /** Messages per cycle without a paid tier. */
  readonly freeMessages: number;
}

const isPaid = (accountType: AccountType | undefined): accountType is PlanTier =>
  accountType !== undefined && (PLAN_TIERS as readonly string[]).includes(accountType);

/**
 * The organization's allowance. A paid tier gives its monthly budget while its subscription runs
 * (`past_due` included: the processor is still collecting); a tier whose subscription was canceled
 * or paused falls back to the free allowance, and a blocked organization may send nothing.
 */
export function allowanceOf(organization: OrganizationBilling, terms: BillingTerms): Allowance {
  if (!terms.enabled) return { kind: 'unlimited' };
  if (organization.status === 'blocked') return { kind: 'messages', max: 0 };
  const { accountType, subscriptionStatus } = organization;
  if (isPaid(accountType) && subscriptionStatus !== 'canceled' && subscriptionStatus !== 'paused')
    return { kind: 'budget', maxMicros: toMicros(budgetUsd(accountType)) };
  return { kind: 'messages', max: terms.freeMessages };
}

/** At or past the allowance: further sends are refused until the cycle resets or the tier goes up. */
export function isOverAllowance(usage: CycleUsage, allowance: Allowance): boolean {
  switch (allowance.kind) {
    case 'unlimited':
      return false;
    case 'messages':
      return usage.messages >= allowance.max;
    case 'budget':
      return usage.costMicros >= allowance.maxMicros;
  }
}

/**
 * Whether `after` lets an organization use more than `before`: a tier up, a paid tier from the
 * free allowance, a subscription running again. Whoever makes such a move lifts a refusal at once.
 */
export function allowanceRaised(before: Allowance, after: Allowance): boolean {
  const rank = (allowance: Allowance): [number, number] => {
    switch (allowance.kind) {
      case 'unlimited':
        return [2, 0];
      case 'budget':
        return [1, allowance.maxMicros];
      case 'messages':
        return [0, allowance.max];
    }
  };
  const [kindBefore, amountBefore] = rank(before);
  const [kindAfter, amountAfter] = rank(after);
  return kindAfter > kindBefore || (kindAfter === kindBefore && amountAfter > amountBefore);
}

/** The share of a budget at which an organization with auto-upgrade on moves up a tier. */
export const AUTO_UPGRADE_AT = 0.9;

export interface AutoUpgrade {
  readonly tier: PlanTier;
  readonly priceId: string;
}

/**
 * The tier an organization moves up to now, if any: it pays for a tier through an active
 * subscription, its billing account has auto-upgrade on, it used at least 90 % of the budget, it
 * was not moved up by itself in this cycle yet, and a tier above exists with a configured price.
 * One leaving its tier (a downgrade pending) or blocked by an operator is never moved up.
 */
export function shouldAutoUpgrade(input: {
  readonly organization: OrganizationBilling;
  readonly autoUpgrade: boolean;
  readonly usage: CycleUsage;
  readonly cycleStart: string;
  /** Price id → tier (BILLING_PRICES). */
  readonly prices: Readonly<Record<string, string>>;
}): AutoUpgrade | undefined {
  const { organization, usage } = input;
  const { accountType } = organization;
  if (!input.autoUpgrade || !isPaid(accountType)) return undefined;
  if (organization.pendingDowngradeAccountType !== undefined || organization.status === 'blocked')
    return undefined;
  if (organization.subscriptionStatus !== 'active' || organization.stripeSubscriptionId === undefined)
    return undefined;
  if (organization.autoUpgradedCycle === input.cycleStart) return undefined;
  if (usage.costMicros < toMicros(budgetUsd(accountType) * AUTO_UPGRADE_AT)) return undefined;
  const tier = tierAbove(accountType);
  if (tier === undefined) return undefined;
  const priceId = Object.keys(input.prices).find((id) => input.prices[id] === tier);
  return priceId === undefined ? undefined : { tier, priceId };
}

/** A send refused because its organization used its allowance or budget for the cycle (402). */
export class UsageLimitExceededError extends PaymentRequiredError {
  constructor(cycleEnd: string) {
    super({
      code: 'USAGE_LIMIT_EXCEEDED',
      message: `This organization has used its plan's allowance for the billing cycle, which resets on ${cycleEnd}. Nothing was sent.`,
      fix: 'Move to a larger budget tier (POST /billing), turn on auto-upgrade, or wait for the cycle to reset.',
    });
  }
}
