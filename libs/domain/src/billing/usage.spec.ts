import type { OrganizationBilling } from '../tenancy/organization';
import type { MeteredItem } from './metering';
import {
  addUsage,
  allowanceOf,
  allowanceRaised,
  type CycleUsage,
  isOverAllowance,
  NO_USAGE,
  shouldAutoUpgrade,
  UsageLimitExceededError,
  usageView,
} from './usage';

const item = (overrides: Partial<MeteredItem>): MeteredItem => ({
  key: 'k',
  channel: 'EMAIL',
  messages: 1,
  costMicros: 400,
  ...overrides,
});

const on = { enabled: true, freeMessages: 3 };
const paid: OrganizationBilling = {
  accountType: 'budget_20',
  subscriptionStatus: 'active',
  stripeSubscriptionId: 'sub_1',
};
const spent = (usd: number): CycleUsage => ({ ...NO_USAGE, costMicros: Math.round(usd * 1_000_000) });

describe('usage of a cycle', () => {
  it('adds messages per channel and costs by kind, and reads in USD', () => {
    const usage = addUsage(NO_USAGE, [
      item({}),
      item({ channel: 'SMS', costMicros: 8_300 }),
      item({ channel: 'CALL', costMicros: 0 }),
      item({ channel: 'CALL', messages: 0, costMicros: 28_000 }),
      item({}),
    ]);
    expect(usage).toEqual({
      messages: 4,
      costMicros: 37_100,
      costSmsMicros: 8_300,
      costCallMicros: 28_000,
      channels: { EMAIL: 2, SMS: 1, CALL: 1 },
    });
    // messageUsage as pingram defines it: every channel but SMS and calls.
    expect(usageView(usage)).toEqual({
      messageUsage: 2,
      budgetUsage: 0.0371,
      costSms: 0.0083,
      costCall: 0.028,
      costNumber: 0,
      channelUsages: { EMAIL: 2, SMS: 1, CALL: 1 },
    });
  });
});

describe('allowances', () => {
  it('limits nobody with billing off', () => {
    const allowance = allowanceOf(paid, { enabled: false, freeMessages: 3 });
    expect(allowance).toEqual({ kind: 'unlimited' });
    expect(isOverAllowance({ ...spent(1e6), messages: 1e9 }, allowance)).toBe(false);
  });

  it('gives a free organization its messages per cycle, refusing from the last one on', () => {
    const allowance = allowanceOf({}, on);
    expect(allowance).toEqual({ kind: 'messages', max: 3 });
    expect(isOverAllowance({ ...NO_USAGE, messages: 2 }, allowance)).toBe(false);
    expect(isOverAllowance({ ...NO_USAGE, messages: 3 }, allowance)).toBe(true);
  });

  it('gives a paid tier its budget in USD, past due included', () => {
    for (const subscriptionStatus of ['active', 'past_due'] as const) {
      const allowance = allowanceOf({ ...paid, subscriptionStatus }, on);
      expect(allowance).toEqual({ kind: 'budget', maxMicros: 20_000_000 });
      expect(isOverAllowance({ ...spent(19.99), messages: 1e6 }, allowance)).toBe(false);
      expect(isOverAllowance(spent(20), allowance)).toBe(true);
    }
  });

  it('falls back to the free allowance when the subscription was canceled or paused, and to none when blocked', () => {
    expect(allowanceOf({ ...paid, subscriptionStatus: 'canceled' }, on)).toEqual({
      kind: 'messages',
      max: 3,
    });
    expect(allowanceOf({ ...paid, subscriptionStatus: 'paused' }, on)).toEqual({ kind: 'messages', max: 3 });
    const blocked = allowanceOf({ ...paid, status: 'blocked' }, on);
    expect(isOverAllowance(NO_USAGE, blocked)).toBe(true);
  });

  it('tells a raise (a tier up, free to paid, a subscription running again) from a cut', () => {
    const free = allowanceOf({}, on);
    const twenty = allowanceOf(paid, on);
    const fifty = allowanceOf({ ...paid, accountType: 'budget_50' }, on);
    expect(allowanceRaised(twenty, fifty)).toBe(true);
    expect(allowanceRaised(free, twenty)).toBe(true);
    expect(allowanceRaised(allowanceOf({ ...paid, subscriptionStatus: 'canceled' }, on), twenty)).toBe(true);
    expect(allowanceRaised(fifty, twenty)).toBe(false);
    expect(allowanceRaised(twenty, twenty)).toBe(false);
    expect(allowanceRaised(twenty, free)).toBe(false);
    expect(allowanceRaised(free, { kind: 'unlimited' })).toBe(true);
  });

  it('says when the cycle resets in the 402 it refuses with', () => {
    const error = new UsageLimitExceededError('2026-02-15');
    expect(error.kind).toBe('payment_required');
    expect(error.code).toBe('USAGE_LIMIT_EXCEEDED');
    expect(error.message).toContain('2026-02-15');
  });
});

describe('shouldAutoUpgrade', () => {
  const prices = { price_20: 'budget_20', price_50: 'budget_50', price_5000: 'budget_5000' };
  const input = {
    organization: paid,
    autoUpgrade: true,
    usage: spent(18),
    cycleStart: '2026-01-15',
    prices,
  };

  it('moves a paid organization one tier up at 90 % of its budget, to the tier’s configured price', () => {
    expect(shouldAutoUpgrade(input)).toEqual({ tier: 'budget_50', priceId: 'price_50' });
    expect(shouldAutoUpgrade({ ...input, usage: spent(17.99) })).toBeUndefined();
  });

  it('does not move an organization with a downgrade pending or blocked', () => {
    const moving = (organization: typeof paid) => shouldAutoUpgrade({ ...input, organization });
    expect(moving({ ...paid, pendingDowngradeAccountType: 'free' })).toBeUndefined();
    expect(moving({ ...paid, status: 'blocked' })).toBeUndefined();
    expect(moving({ ...paid, status: 'verified' })).toEqual({ tier: 'budget_50', priceId: 'price_50' });
  });

  it('does nothing without auto-upgrade, a paid active subscription, a tier above or its price', () => {
    expect(shouldAutoUpgrade({ ...input, autoUpgrade: false })).toBeUndefined();
    expect(shouldAutoUpgrade({ ...input, organization: {} })).toBeUndefined();
    expect(
      shouldAutoUpgrade({ ...input, organization: { ...paid, subscriptionStatus: 'past_due' } }),
    ).toBeUndefined();
    expect(
      shouldAutoUpgrade({ ...input, organization: { ...paid, stripeSubscriptionId: undefined } }),
    ).toBeUndefined();
    expect(
      shouldAutoUpgrade({
        ...input,
        organization: { ...paid, accountType: 'budget_5000' },
        usage: spent(4_900),
      }),
    ).toBeUndefined();
    expect(shouldAutoUpgrade({ ...input, prices: { price_20: 'budget_20' } })).toBeUndefined();
  });

  it('moves up at most once per cycle', () => {
    const upgraded = { ...paid, autoUpgradedCycle: '2026-01-15' };
    expect(shouldAutoUpgrade({ ...input, organization: upgraded })).toBeUndefined();
    expect(shouldAutoUpgrade({ ...input, organization: upgraded, cycleStart: '2026-02-15' })).toEqual({
      tier: 'budget_50',
      priceId: 'price_50',
    });
  });
});
