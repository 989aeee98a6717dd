import {
  billingCycle,
  budgetUsd,
  newOrganization,
  nextCycleReset,
  organizationIdOf,
  planTierSchema,
  tierAbove,
} from './organization';

describe('organizations', () => {
  it('start free, without caps, letting usage through (the self-hosted defaults)', () => {
    expect(
      newOrganization({
        organizationId: 'org_1',
        name: 'Acme',
        creator: 'usr_1',
        now: '2026-01-05T10:00:00.000Z',
      }),
    ).toEqual({
      organizationId: 'org_1',
      organizationType: 'free',
      creator: 'usr_1',
      name: 'Acme',
      messagesCap: 0,
      costCap: 0,
      smsCap: 0,
      callCap: 0,
      allowOverage: true,
      createdAt: '2026-01-05T10:00:00.000Z',
      updatedAt: '2026-01-05T10:00:00.000Z',
    });
  });

  it('are named by the account for an account stored before organizations', () => {
    expect(organizationIdOf({ accountId: 'default' })).toBe('org_default');
    expect(organizationIdOf({ accountId: 'default', organizationId: 'org_x' })).toBe('org_x');
  });

  it('take only the eight budget tiers', () => {
    expect(planTierSchema.safeParse('budget_20').success).toBe(true);
    expect(planTierSchema.safeParse('budget_5000').success).toBe(true);
    expect(planTierSchema.safeParse('budget_30').success).toBe(false);
  });
});

describe('nextCycleReset', () => {
  const at = (iso: string) => Date.parse(iso);

  it('is the anchor day of this month while it is ahead', () => {
    expect(nextCycleReset('2026-01-15T08:00:00.000Z', at('2026-03-10T12:00:00.000Z'))).toBe('2026-03-15');
    expect(nextCycleReset('2026-01-15T08:00:00.000Z', at('2026-03-14T23:59:00.000Z'))).toBe('2026-03-15');
  });

  it('is a month away on the reset day itself, and on the day the cycle starts', () => {
    expect(nextCycleReset('2026-01-15T08:00:00.000Z', at('2026-03-15T00:00:00.000Z'))).toBe('2026-04-15');
    expect(nextCycleReset('2026-01-15T08:00:00.000Z', at('2026-01-15T08:00:00.000Z'))).toBe('2026-02-15');
  });

  it('is the anchor day of next month once passed, across the year', () => {
    expect(nextCycleReset('2026-01-15T08:00:00.000Z', at('2026-03-16T00:00:00.000Z'))).toBe('2026-04-15');
    expect(nextCycleReset('2026-01-15T08:00:00.000Z', at('2026-12-20T00:00:00.000Z'))).toBe('2027-01-15');
  });

  it('falls on the last day of a shorter month', () => {
    expect(nextCycleReset('2026-01-31T08:00:00.000Z', at('2026-02-10T00:00:00.000Z'))).toBe('2026-02-28');
    expect(nextCycleReset('2026-01-31T08:00:00.000Z', at('2028-02-10T00:00:00.000Z'))).toBe('2028-02-29');
    expect(nextCycleReset('2026-01-31T08:00:00.000Z', at('2026-04-29T12:00:00.000Z'))).toBe('2026-04-30');
  });

  it('gives the cycle a moment falls in: from the last reset to the next', () => {
    expect(billingCycle('2026-01-15T08:00:00.000Z', at('2026-03-10T12:00:00.000Z'))).toEqual({
      start: '2026-02-15',
      end: '2026-03-15',
    });
    expect(billingCycle('2026-01-15T08:00:00.000Z', at('2026-03-15T00:00:00.000Z'))).toEqual({
      start: '2026-03-15',
      end: '2026-04-15',
    });
    expect(billingCycle('2026-01-15T08:00:00.000Z', at('2027-01-02T00:00:00.000Z'))).toEqual({
      start: '2026-12-15',
      end: '2027-01-15',
    });
  });

  it('clamps a cycle start to a shorter month, so consecutive cycles meet', () => {
    expect(billingCycle('2026-01-31T08:00:00.000Z', at('2026-03-10T00:00:00.000Z'))).toEqual({
      start: '2026-02-28',
      end: '2026-03-31',
    });
    expect(billingCycle('2026-01-31T08:00:00.000Z', at('2026-02-10T00:00:00.000Z'))).toEqual({
      start: '2026-01-31',
      end: '2026-02-28',
    });
  });
});

describe('budget tiers', () => {
  it('read their monthly budget in USD from their name', () => {
    expect(budgetUsd('budget_20')).toBe(20);
    expect(budgetUsd('budget_5000')).toBe(5000);
  });

  it('move up one at a time and stop at the top', () => {
    expect(tierAbove('budget_20')).toBe('budget_50');
    expect(tierAbove('budget_2000')).toBe('budget_5000');
    expect(tierAbove('budget_5000')).toBeUndefined();
  });
});
