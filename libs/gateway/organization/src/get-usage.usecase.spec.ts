import { newOrganization } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { type MeteredEntry, UsageRepository } from '@notify/store';
import { NotFoundError } from '@notify/util';
import { GetUsageUseCase } from './get-usage.usecase';
import { GetUsageHistoryUseCase } from './get-usage-history.usecase';
import { aKeyCaller, type OrganizationHarness, organizationHarness } from './testing/organization.harness';

const email = (key: string, offset: number): MeteredEntry => ({
  item: { key, channel: 'EMAIL', messages: 1, costMicros: 400 },
  month: '2026-01',
  partition: 0,
  offset: String(offset),
});
const sms = (key: string, offset: number): MeteredEntry => ({
  ...email(key, offset),
  item: { key, channel: 'SMS', messages: 1, costMicros: 8_300 },
});

describe('Organization usage', () => {
  let h: OrganizationHarness;
  let usage: UsageRepository;

  beforeEach(async () => {
    h = await organizationHarness(loadAppConfig({}));
    usage = new UsageRepository(h.store);
    await h.organizations.create(
      newOrganization({
        organizationId: 'org_1',
        name: 'Acme',
        creator: 'usr_1',
        now: '2026-01-15T08:00:00.000Z',
      }),
    );
    await h.accounts.createAccount({
      accountId: 'acct-1',
      name: 'Acme',
      createdAt: '2026-01-15T08:00:00.000Z',
      organizationId: 'org_1',
    });
    h.clock.set('2026-03-20T09:00:00.000Z');
  });

  afterEach(() => h.close());

  const current = (accountId = 'acct-1') =>
    new GetUsageUseCase(h.accountOrganizations, usage, h.clock).execute(aKeyCaller(accountId));
  const history = (startDate: string, endDate: string) =>
    new GetUsageHistoryUseCase(h.accountOrganizations, usage).execute(aKeyCaller('acct-1'), {
      startDate,
      endDate,
    });

  it('answers the current cycle in USD, and zeros before anything was metered', async () => {
    expect(await current()).toEqual({
      messageUsage: 0,
      budgetUsage: 0,
      costSms: 0,
      costCall: 0,
      costNumber: 0,
      channelUsages: {},
      billingCycleStart: '2026-03-15',
      billingCycleEnd: '2026-04-15',
    });
    const cycle = { start: '2026-03-15', end: '2026-04-15' };
    await usage.apply('org_1', cycle, [email('e1', 1), email('e2', 2), sms('s1', 3)], h.now());
    // An earlier cycle is not the current one.
    await usage.apply('org_1', { start: '2026-02-15', end: '2026-03-15' }, [email('e0', 0)], h.now());
    expect(await current()).toMatchObject({
      messageUsage: 2,
      budgetUsage: 0.0091,
      costSms: 0.0083,
      channelUsages: { EMAIL: 2, SMS: 1 },
    });
  });

  it('lists one item per month of the range, the cycle starting in it, zeros where nothing was used', async () => {
    await usage.apply('org_1', { start: '2026-01-15', end: '2026-02-15' }, [email('e1', 1)], h.now());
    await usage.apply(
      'org_1',
      { start: '2026-03-15', end: '2026-04-15' },
      [sms('s1', 2), sms('s2', 3)],
      h.now(),
    );
    const items = (await history('2025-12-01', '2026-03-31')).items;
    expect(items.map((item) => [item.yearMonth, item.messageUsage, item.channelUsages])).toEqual([
      ['2025-12', 0, {}],
      ['2026-01', 1, { EMAIL: 1 }],
      ['2026-02', 0, {}],
      ['2026-03', 0, { SMS: 2 }],
    ]);
    expect(items[3]).toEqual({
      yearMonth: '2026-03',
      messageUsage: 0,
      budgetUsage: 0.0166,
      costSms: 0.0166,
      costCall: 0,
      costNumber: 0,
      channelUsages: { SMS: 2 },
    });
    expect((await history('2026-03-01', '2026-03-01')).items).toHaveLength(1);
  });

  it('is 404 for an account that does not exist', async () => {
    await expect(current('acct-gone')).rejects.toBeInstanceOf(NotFoundError);
  });
});
