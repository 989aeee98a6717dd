import { newOrganization } from '@notify/domain';
import { requireBackend } from '@notify/testing';
import type { DocumentStore } from './document-store.port';
import { OrganizationRepository } from './repositories/organization.repository';
import { type MeteredEntry, UsageRepository } from './repositories/usage.repository';
import { newStoreLocation, openStore, type StoreLocation } from './testing/store-harness';

const NOW = '2026-01-20T00:00:00.000Z';
const CYCLE = { start: '2026-01-15', end: '2026-02-15' };

const entry = (key: string, offset: number, overrides: Partial<MeteredEntry> = {}): MeteredEntry => ({
  item: { key, channel: 'EMAIL', messages: 1, costMicros: 400 },
  month: '2026-01',
  partition: 0,
  offset: String(offset),
  ...overrides,
});

describe.each(['embedded', 'mongodb'] as const)('Usage store contract (%s)', (adapter) => {
  let location: StoreLocation;
  let store: DocumentStore;
  let usage: UsageRepository;
  let organizations: OrganizationRepository;

  beforeAll(async () => {
    if (adapter === 'mongodb') await requireBackend('mongo');
  });

  beforeEach(async () => {
    location = await newStoreLocation(adapter);
    store = openStore(location);
    usage = new UsageRepository(store);
    organizations = new OrganizationRepository(store);
    await store.ensureIndexes();
  });

  afterEach(async () => {
    await store?.close();
    await location?.cleanup();
  });

  it('lets a key count at the first bus position it was seen at only, again there, never elsewhere', async () => {
    const first = [entry('evt-1', 5), entry('evt-2', 6)];
    expect(await usage.claim(first)).toEqual(first);
    // A redelivery (same positions) still counts; a republished copy (a later offset) does not.
    expect(await usage.claim(first)).toEqual(first);
    expect(await usage.claim([entry('evt-1', 9), entry('evt-3', 10)])).toEqual([entry('evt-3', 10)]);
    expect(await usage.claim([entry('evt-2', 6, { partition: 1 })])).toEqual([]);
  });

  it('applies entries past each partition’s watermark once, and reads the cycle back', async () => {
    const sms: MeteredEntry = {
      ...entry('evt-s', 7),
      item: { key: 'evt-s', channel: 'SMS', messages: 1, costMicros: 8_300 },
    };
    const applied = await usage.apply('org_1', CYCLE, [entry('evt-1', 5), sms], NOW);
    expect(applied).toEqual({
      ...CYCLE,
      messages: 2,
      costMicros: 8_700,
      costSmsMicros: 8_300,
      costCallMicros: 0,
      channels: { EMAIL: 1, SMS: 1 },
    });
    // Replayed with one new entry and one of another partition at a lower offset: only those two add.
    const again = await usage.apply(
      'org_1',
      CYCLE,
      [entry('evt-1', 5), sms, entry('evt-4', 8), entry('evt-5', 2, { partition: 1 })],
      NOW,
    );
    expect(again.messages).toBe(4);
    expect(again.channels).toEqual({ EMAIL: 3, SMS: 1 });
    expect(await usage.apply('org_1', CYCLE, [entry('evt-4', 8)], NOW)).toEqual(again);
    expect(await usage.get('org_1', CYCLE.start)).toEqual(again);
    expect(await usage.get('org_2', CYCLE.start)).toBeUndefined();
    // Offsets compare as numbers, not strings.
    expect((await usage.apply('org_1', CYCLE, [entry('evt-6', 10)], NOW)).messages).toBe(5);
  });

  it('counts entries claimed now below a watermark (offsets went back), never a redelivery twice', async () => {
    const old = await usage.claimEach([entry('evt-old', 1_000)]);
    await usage.apply('org_1', CYCLE, old.counted, NOW, old.claimedNow);
    // The topic was recreated: new events come at low offsets, and then again (a redelivery).
    const fresh = [entry('evt-new-1', 3), entry('evt-new-2', 4)];
    const first = await usage.claimEach(fresh);
    expect(first.counted).toEqual(fresh);
    expect((await usage.apply('org_1', CYCLE, first.counted, NOW, first.claimedNow)).messages).toBe(3);
    const again = await usage.claimEach(fresh);
    expect(again.counted).toEqual(fresh);
    expect(again.claimedNow.size).toBe(0);
    expect((await usage.apply('org_1', CYCLE, again.counted, NOW, again.claimedNow)).messages).toBe(3);
    const next = await usage.claimEach([entry('evt-new-3', 5)]);
    expect((await usage.apply('org_1', CYCLE, next.counted, NOW, next.claimedNow)).messages).toBe(4);
  });

  it('gives back a dead-lettered claim never applied, so a replay counts; keeps one the watermark passed', async () => {
    await usage.claim([entry('evt-dead', 7), entry('evt-done', 5)]);
    await usage.apply('org_1', CYCLE, [entry('evt-done', 5)], NOW);
    expect(await usage.release(entry('evt-done', 5), 'org_1', CYCLE.start)).toBe(false);
    expect(await usage.release(entry('evt-dead', 7), 'org_1', CYCLE.start)).toBe(true);
    expect(await usage.release(entry('evt-gone', 1), 'org_1', CYCLE.start)).toBe(false);
    // The replay, at a new position: the dead one counts, the applied one does not again.
    const replay = await usage.claimEach([entry('evt-dead', 40), entry('evt-done', 41)]);
    expect(replay.counted).toEqual([entry('evt-dead', 40)]);
    expect((await usage.apply('org_1', CYCLE, replay.counted, NOW, replay.claimedNow)).messages).toBe(2);
  });

  it('lists an organization’s cycles within a range, oldest first', async () => {
    for (const start of ['2025-12-15', '2026-01-15', '2026-02-15'])
      await usage.apply('org_1', { start, end: 'x' }, [entry(`evt-${start}`, 1)], NOW);
    await usage.apply('org_2', CYCLE, [entry('evt-x', 1)], NOW);
    const listed = await usage.list('org_1', '2026-01-01', '2026-02-28');
    expect(listed.map((cycle) => cycle.start)).toEqual(['2026-01-15', '2026-02-15']);
    expect(await usage.list('org_3', '2000-01-01', '2100-01-01')).toEqual([]);
  });

  it('drops the ledger rows of the months named, so their keys could be claimed anew', async () => {
    await usage.claim([entry('evt-1', 5), entry('evt-2', 6, { month: '2026-02' })]);
    expect(await usage.pruneLedger(['2025-12', '2026-01'])).toBe(1);
    expect(await usage.claim([entry('evt-1', 9)])).toHaveLength(1);
    expect(await usage.claim([entry('evt-2', 9, { month: '2026-02' })])).toHaveLength(0);
  });

  it('grants one automatic upgrade per cycle, then records the tier and its budget', async () => {
    await organizations.create({
      ...newOrganization({ organizationId: 'org_1', name: 'Acme', creator: 'usr_1', now: NOW }),
      accountType: 'budget_20',
    });
    const claims = await Promise.all(
      [1, 2, 3].map(() => organizations.claimAutoUpgrade('org_1', CYCLE.start, 'budget_20')),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await organizations.claimAutoUpgrade('org_1', CYCLE.start, 'budget_20')).toBe(false);
    expect(await organizations.claimAutoUpgrade('org_missing', CYCLE.start, 'budget_20')).toBe(false);
    const upgraded = await organizations.setTier('org_1', 'budget_50', NOW);
    expect(upgraded).toMatchObject({ accountType: 'budget_50', costCap: 50, autoUpgradedCycle: CYCLE.start });
    // Next cycle, from the new tier.
    expect(await organizations.claimAutoUpgrade('org_1', '2026-02-15', 'budget_20')).toBe(false);
    expect(await organizations.claimAutoUpgrade('org_1', '2026-02-15', 'budget_50')).toBe(true);
    expect(await organizations.setTier('org_missing', 'budget_50', NOW)).toBeUndefined();
  });
});
