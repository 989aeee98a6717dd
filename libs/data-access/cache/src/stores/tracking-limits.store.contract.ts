import { eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { TrackingLimitsStore } from './tracking-limits.store';

const T = 1_700_000_040_000;

describe.each(['embedded', 'redis'] as const)('TrackingLimitsStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let limits: TrackingLimitsStore;
  const a = { accountId: 'acct', envId: 'env-a' };
  const b = { accountId: 'acct', envId: 'env-b' };

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    limits = new TrackingLimitsStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('counts the first open of a message in its window only, per message and environment, and again after it', async () => {
    expect(await limits.firstOpen(a, 't1', 400, T)).toBe(true);
    expect(await limits.firstOpen(a, 't1', 400, T + 1)).toBe(false);
    const replays = await Promise.all(
      Array.from({ length: 20 }, () => limits.firstOpen(a, 't1', 400, Date.now())),
    );
    expect(replays.every((first) => !first)).toBe(true);
    expect(await limits.firstOpen(a, 't2', 400, T)).toBe(true);
    expect(await limits.firstOpen(b, 't1', 400, T)).toBe(true);
    await eventually(async () => expect(await limits.firstOpen(a, 't1', 400, Date.now())).toBe(true), 5_000);
  });

  it('counts an open again once it is forgotten (its recording failed), and only that one', async () => {
    expect(await limits.firstOpen(a, 'f1', 60_000, T)).toBe(true);
    expect(await limits.firstOpen(a, 'f2', 60_000, T)).toBe(true);
    await limits.forgetOpen(a, 'f1');
    expect(await limits.firstOpen(a, 'f1', 60_000, T)).toBe(true);
    expect(await limits.firstOpen(a, 'f2', 60_000, T)).toBe(false);
  });

  it('counts requests per address in one-minute windows, all at once counted exactly', async () => {
    const counts = await Promise.all(
      Array.from({ length: 25 }, () => limits.request('203.0.113.7', T + 5_000)),
    );
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect(counts[0]?.resetAt).toBe(T + 60_000);
    expect((await limits.request('198.51.100.1', T + 5_000)).count).toBe(1);
    expect((await limits.request('203.0.113.7', T + 65_000)).count).toBe(1);
  });
});
