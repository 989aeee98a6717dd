import { UsageRepository } from '@notify/store';
import { billingHarness, BILLING_ENV, onBus } from './testing/billing.harness';
import { expiredMonths } from './meter-usage.usecase';

describe('MeterUsageUseCase', () => {
  let h: Awaited<ReturnType<typeof billingHarness>>;

  afterEach(async () => {
    await h.close();
  });

  it('counts what reached a provider into the organization’s cycle, per channel and priced', async () => {
    h = await billingHarness();
    await h.anAccount('acc-1', 'org_1');
    await h
      .meter()
      .execute([
        onBus({ eventId: 'e1', event: 'request_received' }, 0, 1),
        onBus({ eventId: 'e2', event: 'email_sent' }, 0, 2),
        onBus({ eventId: 'e3', event: 'email_delivered' }, 0, 3),
        onBus({ eventId: 'e4', event: 'sms_sent', fields: { sms_sent_cost: 0.0083 } }, 1, 1),
        onBus({ eventId: 'e5', event: 'call_sent' }, 1, 2),
        onBus({ eventId: 'e6', event: 'call_delivered', fields: { call_delivered_cost: 0.028 } }, 1, 3),
      ]);
    expect(await h.usage.get('org_1', '2026-01-15')).toEqual({
      start: '2026-01-15',
      end: '2026-02-15',
      messages: 3,
      costMicros: 500_000 + 8_300 + 28_000,
      costSmsMicros: 8_300,
      costCallMicros: 28_000,
      channels: { EMAIL: 1, SMS: 1, CALL: 1 },
    });
  });

  it('counts each organization on its own, an account without one getting its own on first use', async () => {
    h = await billingHarness();
    await h.anAccount('acc-1', 'org_1');
    await h.accounts.createAccount({
      accountId: 'acc-old',
      name: 'Old',
      createdAt: '2025-06-01T00:00:00.000Z',
    });
    await h
      .meter()
      .execute([
        onBus({ eventId: 'e1', accountId: 'acc-1' }, 0, 1),
        onBus({ eventId: 'e2', accountId: 'acc-old' }, 0, 2),
        onBus({ eventId: 'e3', accountId: 'acc-old' }, 0, 3),
        onBus({ eventId: 'e4', accountId: 'acc-gone' }, 0, 4),
      ]);
    expect((await h.usage.get('org_1', '2026-01-15'))?.messages).toBe(1);
    // Made now (the fake clock's 2026-01-20), its cycles run from the 20th.
    expect((await h.usage.get('org_acc-old', '2026-01-20'))?.messages).toBe(2);
  });

  it('marks an organization over its free allowance until its cycle resets, and a paid one at its budget', async () => {
    h = await billingHarness();
    await h.anAccount('acc-1', 'org_1');
    await h.anAccount('acc-2', 'org_2', {
      accountType: 'budget_20',
      subscriptionStatus: 'active',
      stripeSubscriptionId: 'sub_2',
    });
    const emails = (accountId: string, from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        onBus({ eventId: `${accountId}-${from + i}`, accountId }, 0, from + i),
      );
    await h.meter().execute([...emails('acc-1', 1, 4), ...emails('acc-2', 101, 39)]);
    expect(await h.limits.blockedUntil('org_1', h.clock.now())).toBeUndefined();
    expect(await h.limits.blockedUntil('org_2', h.clock.now())).toBeUndefined();
    await h.meter().execute([...emails('acc-1', 5, 1), ...emails('acc-2', 140, 1)]);
    expect(await h.limits.blockedUntil('org_1', h.clock.now())).toBe('2026-02-15');
    expect(await h.limits.blockedUntil('org_2', h.clock.now())).toBe('2026-02-15');
  });

  it('counts a late event of an ended cycle into that cycle without blocking the current one', async () => {
    h = await billingHarness();
    await h.anAccount('acc-1', 'org_1');
    const late = Date.parse('2026-01-10T09:00:00.000Z');
    await h
      .meter()
      .execute(Array.from({ length: 6 }, (_, i) => onBus({ eventId: `e${i}`, time: late }, 0, i)));
    expect((await h.usage.get('org_1', '2025-12-15'))?.messages).toBe(6);
    expect(await h.limits.blockedUntil('org_1', h.clock.now())).toBeUndefined();
  });

  it('lifts a mark left by a lost lift once a metering pass finds the allowance covers the usage', async () => {
    h = await billingHarness();
    await h.anAccount('acc-1', 'org_1', {
      accountType: 'budget_20',
      subscriptionStatus: 'active',
      stripeSubscriptionId: 'sub_1',
    });
    // Marked while on the free allowance; the tier's lift was lost (a store error, no retry).
    await h.limits.block('org_1', '2026-02-15', h.clock.now());
    await h.meter().execute([onBus({ eventId: 'e1' }, 0, 1)]);
    expect(await h.limits.blockedUntil('org_1', h.clock.now())).toBeUndefined();
  });

  it('does not leave a mark written after an upgrade’s lift by a pass that read the organization before', async () => {
    h = await billingHarness();
    await h.anAccount('acc-1', 'org_1');
    const block = h.limits.block.bind(h.limits);
    // The webhook stores the tier and lifts between this pass's read and its block.
    h.limits.block = async (organizationId, cycleEnd, now) => {
      await h.organizations.update(organizationId, (current) => ({
        ...current,
        accountType: 'budget_20',
        subscriptionStatus: 'active',
      }));
      await h.limits.lift(organizationId);
      await block(organizationId, cycleEnd, now);
    };
    await h.meter().execute(Array.from({ length: 5 }, (_, i) => onBus({ eventId: `e${i}` }, 0, i)));
    expect((await h.usage.get('org_1', '2026-01-15'))?.messages).toBe(5);
    expect(await h.limits.blockedUntil('org_1', h.clock.now())).toBeUndefined();
  });

  it('lets the replay of a dead-lettered batch count, once, by giving back its claims', async () => {
    h = await billingHarness();
    await h.anAccount('acc-1', 'org_1');
    class BrokenUsage extends UsageRepository {
      override apply(): never {
        throw new Error('usage not written');
      }
    }
    const letters = [onBus({ eventId: 'e1' }, 0, 1), onBus({ eventId: 'e2' }, 0, 2)];
    await expect(h.meter(new BrokenUsage(h.store)).execute(letters)).rejects.toThrow('usage not written');
    await h
      .meter()
      .releaseDeadLetters([
        ...letters.map((letter) => ({ value: JSON.stringify(letter.value), reason: 'handler failed' })),
        { value: 'not json', reason: 'payload is not JSON' },
      ]);
    // Replayed onto the topic: new positions.
    const replayed = [onBus({ eventId: 'e1' }, 0, 50), onBus({ eventId: 'e2' }, 0, 51)];
    await h.meter().execute(replayed);
    await h.meter().execute(replayed);
    expect((await h.usage.get('org_1', '2026-01-15'))?.messages).toBe(2);
  });

  it('never blocks with billing off', async () => {
    const { STRIPE_SECRET_KEY: _off, ...env } = BILLING_ENV;
    h = await billingHarness(env);
    await h.anAccount('acc-1', 'org_1');
    await h.meter().execute(Array.from({ length: 10 }, (_, i) => onBus({ eventId: `e${i}` }, 0, i)));
    expect(await h.limits.blockedUntil('org_1', h.clock.now())).toBeUndefined();
  });

  it('drops ledger rows past retention once a month', async () => {
    h = await billingHarness();
    await h.anAccount('acc-1', 'org_1');
    const old = {
      item: { key: 'e-old', channel: 'EMAIL' as const, messages: 1 as const, costMicros: 1 },
      partition: 0,
    };
    await h.usage.claim([{ ...old, month: '2025-09', offset: '1' }]);
    await h.usage.claim([{ ...old, month: '2025-10', offset: '1' }]);
    await h.meter().execute([]);
    // 2025-09 is past three months of retention in January 2026; 2025-10 is kept.
    expect(await h.usage.claim([{ ...old, month: '2025-09', offset: '2' }])).toHaveLength(1);
    expect(await h.usage.claim([{ ...old, month: '2025-10', offset: '2' }])).toHaveLength(0);
    expect(expiredMonths(h.clock.now())).toEqual([
      '2025-09',
      '2025-08',
      '2025-07',
      '2025-06',
      '2025-05',
      '2025-04',
      '2025-03',
      '2025-02',
      '2025-01',
      '2024-12',
      '2024-11',
      '2024-10',
    ]);
  });
});
