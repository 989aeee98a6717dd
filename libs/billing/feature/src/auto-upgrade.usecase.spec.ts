import type { CycleUsage, Organization } from '@notify/domain';
import { billingHarness, onBus } from './testing/billing.harness';

const CYCLE = { start: '2026-01-15', end: '2026-02-15' };
const spent = (usd: number): CycleUsage => ({
  messages: 1,
  costMicros: usd * 1_000_000,
  costSmsMicros: 0,
  costCallMicros: 0,
  channels: {},
});
const PAID = {
  accountType: 'budget_20',
  subscriptionStatus: 'active',
  stripeSubscriptionId: 'sub_1',
  billingAccountId: 'acc-1',
} as const;

describe('AutoUpgradeUseCase', () => {
  let h: Awaited<ReturnType<typeof billingHarness>>;

  beforeEach(async () => {
    h = await billingHarness();
  });

  afterEach(async () => {
    await h.close();
  });

  const organization = async () => (await h.organizations.get('org_1')) as Organization;

  it('moves a paid organization one tier up at 90 % through the processor, once, and lets it send again', async () => {
    await h.anAccount('acc-1', 'org_1', PAID, true);
    await h.limits.block('org_1', CYCLE.end, h.clock.now());
    expect(await h.autoUpgrade.execute(await organization(), spent(17.9), CYCLE)).toMatchObject({
      accountType: 'budget_20',
    });
    expect(h.processor.priceChanges).toEqual([]);
    const upgraded = await h.autoUpgrade.execute(await organization(), spent(18), CYCLE);
    expect(upgraded).toMatchObject({ accountType: 'budget_50', costCap: 50, autoUpgradedCycle: CYCLE.start });
    expect(h.processor.priceChanges).toEqual([
      {
        subscriptionId: 'sub_1',
        priceId: 'price_50',
        idempotencyKey: 'auto-upgrade/org_1/2026-01-15/budget_50',
      },
    ]);
    expect(await h.limits.blockedUntil('org_1', h.clock.now())).toBeUndefined();
    // At 90 % of the new budget in the same cycle: no second move.
    await h.autoUpgrade.execute(await organization(), spent(45), CYCLE);
    expect(h.processor.priceChanges).toHaveLength(1);
    expect((await organization()).accountType).toBe('budget_50');
  });

  it('moves up once when two replicas decide at the same moment', async () => {
    await h.anAccount('acc-1', 'org_1', PAID, true);
    const seen = await organization();
    await Promise.all([1, 2, 3].map(() => h.autoUpgrade.execute(seen, spent(19), CYCLE)));
    expect(h.processor.priceChanges).toHaveLength(1);
    expect((await organization()).accountType).toBe('budget_50');
  });

  it('gives the claim back when the processor fails, and the next try changes the price once', async () => {
    await h.anAccount('acc-1', 'org_1', PAID, true);
    h.processor.failNext();
    expect((await h.autoUpgrade.execute(await organization(), spent(19), CYCLE)).accountType).toBe(
      'budget_20',
    );
    expect(await organization()).not.toHaveProperty('autoUpgradedCycle');
    await h.autoUpgrade.execute(await organization(), spent(19), CYCLE);
    expect(h.processor.priceChanges).toHaveLength(1);
    expect((await organization()).accountType).toBe('budget_50');
  });

  it('lifts the refusal on the retry when the lift after storing the tier failed', async () => {
    await h.anAccount('acc-1', 'org_1', PAID, true);
    await h.limits.block('org_1', CYCLE.end, h.clock.now());
    jest.spyOn(h.limits, 'lift').mockRejectedValueOnce(new Error('coordination store down'));
    const batch = Array.from({ length: 36 }, (_, i) => onBus({ eventId: `e${i}`, accountId: 'acc-1' }, 0, i));
    await expect(h.meter().execute(batch)).rejects.toThrow('coordination store down');
    expect((await organization()).accountType).toBe('budget_50');
    // The redelivered batch finds the cycle's upgrade made: the tier's allowance lifts the mark.
    await h.meter().execute(batch);
    expect(await h.limits.blockedUntil('org_1', h.clock.now())).toBeUndefined();
    expect(h.processor.priceChanges).toHaveLength(1);
  });

  it('keeps the claim when the processor refuses the change itself, trying no more this cycle', async () => {
    await h.anAccount('acc-1', 'org_1', PAID, true);
    h.processor.refuseNext();
    expect((await h.autoUpgrade.execute(await organization(), spent(19), CYCLE)).accountType).toBe(
      'budget_20',
    );
    expect(await organization()).toMatchObject({ accountType: 'budget_20', autoUpgradedCycle: CYCLE.start });
    await h.autoUpgrade.execute(await organization(), spent(19.5), CYCLE);
    expect(h.processor.priceChanges).toEqual([]);
  });

  it('does nothing unless the billing account turned auto-upgrade on', async () => {
    await h.anAccount('acc-1', 'org_1', PAID, false);
    await h.autoUpgrade.execute(await organization(), spent(19.5), CYCLE);
    expect(h.processor.priceChanges).toEqual([]);
    expect((await organization()).accountType).toBe('budget_20');
  });

  it('is what metering does once a batch brings a paid organization to 90 %', async () => {
    await h.anAccount('acc-1', 'org_1', PAID, true);
    // EMAIL at 0.5 USD: 36 messages are 18 USD, 90 % of budget_20.
    await h
      .meter()
      .execute(Array.from({ length: 36 }, (_, i) => onBus({ eventId: `e${i}`, accountId: 'acc-1' }, 0, i)));
    expect(h.processor.priceChanges).toHaveLength(1);
    expect((await organization()).accountType).toBe('budget_50');
  });
});
