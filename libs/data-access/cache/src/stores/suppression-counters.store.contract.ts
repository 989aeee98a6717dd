import { dedupKey, type Throttling, throttleKey } from '@notify/domain';
import { aScope, aSend, eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { SuppressionCountersStore } from './suppression-counters.store';

const throttling: Throttling = { max: 3, period: 1, unit: 'hours', forever: false, scope: ['userId'] };
const overMax = (count: number) => count > throttling.max;

describe.each(['embedded', 'redis'] as const)('SuppressionCountersStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let counters: SuppressionCountersStore;
  const scope = aScope();

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    counters = new SuppressionCountersStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('records the first of duplicates, answers it again as first, and forgets it after the ttl', async () => {
    expect(await counters.firstOfDuplicates(scope, aSend(), 't1', 400)).toBe(true);
    expect(await counters.firstOfDuplicates(scope, aSend(), 't2', 400)).toBe(false);
    expect(await counters.firstOfDuplicates(scope, aSend(), 't1', 400)).toBe(true);
    expect(await counters.firstOfDuplicates(scope, aSend({ parameters: { other: 1 } }), 't3', 400)).toBe(
      true,
    );
    expect(await counters.firstOfDuplicates(aScope({ envId: 'other' }), aSend(), 't4', 400)).toBe(true);
    await eventually(
      async () => expect(await counters.firstOfDuplicates(scope, aSend(), 't5', 400)).toBe(true),
      5_000,
    );
  });

  it('keeps the dedup record under its key as before (the tracking id under dedupKey)', async () => {
    await counters.firstOfDuplicates(scope, aSend(), 't1', 60_000);
    expect(await coordination.get(dedupKey(scope, aSend()))).toBe('t1');
  });

  it('counts each send once, concurrent first sends exactly, and keeps each verdict', async () => {
    const verdicts = await Promise.all(
      ['t1', 't2', 't3', 't4', 't5'].map((id) => counters.countOnce(scope, throttling, aSend(), id, overMax)),
    );
    expect(verdicts.filter((over) => over)).toHaveLength(2);
    expect(await coordination.get(throttleKey(scope, throttling, aSend()))).toBe('5');
    const again = await Promise.all(
      ['t1', 't2', 't3', 't4', 't5'].map((id) => counters.countOnce(scope, throttling, aSend(), id, overMax)),
    );
    expect(again).toEqual(verdicts);
    expect(await coordination.get(throttleKey(scope, throttling, aSend()))).toBe('5');
    expect(await coordination.get(`throttled/${scope.accountId}/${scope.envId}/t1`)).toMatch(
      /^(over|within)$/,
    );
  });

  it('counts per the throttling scope: another user has a counter of their own', async () => {
    for (const id of ['t1', 't2', 't3', 't4'])
      await counters.countOnce(scope, throttling, aSend(), id, overMax);
    expect(await counters.countOnce(scope, throttling, aSend({ userId: 'u-2' }), 'u2-1', overMax)).toBe(
      false,
    );
    expect(await counters.countOnce(scope, throttling, aSend(), 't5', overMax)).toBe(true);
  });
});
