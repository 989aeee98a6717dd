import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { PeriodicTurnsStore } from './periodic-turns.store';

describe.each(['embedded', 'redis'] as const)('PeriodicTurnsStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let turns: PeriodicTurnsStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    turns = new PeriodicTurnsStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('gives each period’s turn to one of many racers, and the next period’s again', async () => {
    const now = 1_700_000_000_000;
    const racers = await Promise.all(Array.from({ length: 8 }, () => turns.take('job', 60_000, now)));
    expect(racers.filter(Boolean)).toHaveLength(1);
    expect(await turns.take('job', 60_000, now + 59_999 - (now % 60_000))).toBe(false);
    expect(await turns.take('job', 60_000, now + 60_000)).toBe(true);
    expect(await turns.take('other-job', 60_000, now)).toBe(true);
  });
});
