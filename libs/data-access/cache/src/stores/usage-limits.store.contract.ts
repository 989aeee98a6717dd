import { eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { UsageLimitsStore } from './usage-limits.store';

const NOW = Date.parse('2026-01-20T10:00:00.000Z');

describe.each(['embedded', 'redis'] as const)('UsageLimitsStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let billing: CoordinationStore;
  let gateway: CoordinationStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    billing = openStore(location);
    // Another replica on its own connections; the embedded store serves one process, so it is its own peer.
    gateway = adapter === 'embedded' ? billing : openStore(location);
  });

  afterEach(async () => {
    await billing.close();
    if (gateway !== billing) await gateway.close();
    await location.cleanup();
  });

  it('keeps an organization blocked until its cycle resets, for every replica', async () => {
    await new UsageLimitsStore(billing).block('org_1', '2026-02-15', NOW);
    const limits = new UsageLimitsStore(gateway);
    expect(await limits.blockedUntil('org_1', NOW)).toBe('2026-02-15');
    expect(await limits.blockedUntil('org_1', Date.parse('2026-02-14T23:59:59.000Z'))).toBe('2026-02-15');
    expect(await limits.blockedUntil('org_1', Date.parse('2026-02-15T00:00:00.000Z'))).toBeUndefined();
    expect(await limits.blockedUntil('org_2', NOW)).toBeUndefined();
  });

  it('ignores a block for a cycle that already reset, and lifts one at once', async () => {
    const limits = new UsageLimitsStore(billing);
    await limits.block('org_1', '2026-01-20', NOW);
    expect(await limits.blockedUntil('org_1', NOW)).toBeUndefined();
    await limits.block('org_1', '2026-02-15', NOW);
    await new UsageLimitsStore(gateway).lift('org_1');
    expect(await limits.blockedUntil('org_1', NOW)).toBeUndefined();
  });

  it('lifts only a marked organization when asked to if blocked, announcing only that lift', async () => {
    const heard: [string, string | undefined][] = [];
    const stop = await new UsageLimitsStore(gateway).listen((org, until) => heard.push([org, until]));
    const limits = new UsageLimitsStore(billing);
    await limits.liftIfBlocked('org_free');
    await limits.block('org_1', '2026-02-15', NOW);
    await limits.liftIfBlocked('org_1');
    expect(await limits.blockedUntil('org_1', NOW)).toBeUndefined();
    await eventually(
      () =>
        expect(heard).toEqual([
          ['org_1', '2026-02-15'],
          ['org_1', undefined],
        ]),
      5_000,
    );
    await stop();
  });

  it('tells every listener of each block and lift, until it stops listening', async () => {
    const heard: [string, string | undefined][] = [];
    const stop = await new UsageLimitsStore(gateway).listen((org, until) => heard.push([org, until]));
    const limits = new UsageLimitsStore(billing);
    await limits.block('org_1', '2026-02-15', NOW);
    await limits.lift('org_1');
    await eventually(
      () =>
        expect(heard).toEqual([
          ['org_1', '2026-02-15'],
          ['org_1', undefined],
        ]),
      5_000,
    );
    await stop();
    await limits.block('org_2', '2026-02-15', NOW);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toHaveLength(2);
  });
});
