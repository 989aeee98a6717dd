import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { AuthFailuresStore } from './auth-failures.store';

const T = 1_700_000_040_000;

describe.each(['embedded', 'redis'] as const)('AuthFailuresStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let failures: AuthFailuresStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    failures = new AuthFailuresStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('counts failures per address in one-minute windows, all at once counted exactly', async () => {
    const counts = await Promise.all(
      Array.from({ length: 15 }, () => failures.failed('203.0.113.7', T + 5_000)),
    );
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 15 }, (_, i) => i + 1),
    );
    expect(counts[0]?.windowEnd).toBe(T + 60_000);
    expect(await failures.failed('198.51.100.1', T + 5_000)).toEqual({ count: 1, windowEnd: T + 60_000 });
    expect(await failures.failed('203.0.113.7', T + 65_000)).toEqual({ count: 1, windowEnd: T + 120_000 });
  });

  it('counts under the key the gateways counted under before this store', async () => {
    const window = Math.floor((T + 5_000) / 60_000);
    await coordination.increment(`auth-failures/192.0.2.9/${window}`, 4, 60_000);
    expect((await failures.failed('192.0.2.9', T + 5_000)).count).toBe(5);
  });
});
