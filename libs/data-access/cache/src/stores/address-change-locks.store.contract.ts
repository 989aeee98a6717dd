import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { AddressChangeLocksStore } from './address-change-locks.store';

describe.each(['embedded', 'redis'] as const)('AddressChangeLocksStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let locks: AddressChangeLocksStore;
  const a = { accountId: 'acct', envId: 'env-a' };
  const b = { accountId: 'acct', envId: 'env-b' };

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    locks = new AddressChangeLocksStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('gives an environment’s lock to one racer at a time, and again once released', async () => {
    const holders = await Promise.all(Array.from({ length: 8 }, () => locks.acquire(a)));
    const winners = holders.filter((h): h is string => h !== undefined);
    expect(winners).toHaveLength(1);
    expect(await locks.acquire(b)).toEqual(expect.any(String));
    await locks.release(a, winners[0] ?? '');
    expect(await locks.acquire(a)).toEqual(expect.any(String));
  });

  it('is not released by a holder whose lock another has taken since', async () => {
    await coordination.set('addresses/lock/acct/env-a', 'someone-else', 60_000);
    expect(await locks.acquire(a)).toBeUndefined();
    await locks.release(a, 'stale-holder');
    expect(await coordination.get('addresses/lock/acct/env-a')).toBe('someone-else');
    await locks.release(a, 'someone-else');
    expect(await locks.acquire(a)).toEqual(expect.any(String));
  });
});
