import { eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { ConsoleSignInLinksStore } from './console-sign-in-links.store';

const T = 1_700_000_040_000;
const ANN = { userId: 'usr_ann', email: 'ann@example.com' };

describe.each(['embedded', 'redis'] as const)('ConsoleSignInLinksStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let other: CoordinationStore;
  let links: ConsoleSignInLinksStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    // Another gateway on its own connections; the embedded store serves one process, so it is its own peer.
    other = adapter === 'embedded' ? coordination : openStore(location);
    links = new ConsoleSignInLinksStore(coordination);
  });

  afterEach(async () => {
    if (other !== coordination) await other.close();
    await coordination.close();
    await location.cleanup();
  });

  it('redeems a link exactly once, whichever of 20 racing gateways asks', async () => {
    await links.issue('hash-1', ANN, 60_000);
    const peer = new ConsoleSignInLinksStore(other);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? links : peer).redeem('hash-1')),
    );
    expect(outcomes.filter((o) => o.outcome === 'redeemed')).toEqual([{ outcome: 'redeemed', record: ANN }]);
    expect(outcomes.filter((o) => o.outcome === 'used')).toHaveLength(19);
    expect(await peer.redeem('hash-1')).toEqual({ outcome: 'used' });
  });

  it('knows no link it never issued, and keeps only the hash and its record', async () => {
    expect(await links.redeem('never')).toEqual({ outcome: 'unknown' });
    await links.issue('hash-2', ANN, 60_000);
    expect(JSON.parse((await coordination.get('console-sign-in/links/hash-2')) ?? '{}')).toEqual(ANN);
    expect(await links.redeem('never')).toEqual({ outcome: 'unknown' });
  });

  it('forgets a link once its time is up', async () => {
    await links.issue('hash-3', ANN, 300);
    await eventually(
      async () => expect(await coordination.get('console-sign-in/links/hash-3')).toBeUndefined(),
      5_000,
    );
    expect(await links.redeem('hash-3')).toEqual({ outcome: 'unknown' });
  });

  it('keeps a session revoked for the time given, seen from every gateway', async () => {
    expect(await links.isRevoked('sid-1')).toBe(false);
    await links.revoke('sid-1', 300);
    await links.revoke('sid-gone', 0);
    const peer = new ConsoleSignInLinksStore(other);
    expect(await peer.isRevoked('sid-1')).toBe(true);
    expect(await peer.isRevoked('sid-gone')).toBe(false);
    await eventually(async () => expect(await peer.isRevoked('sid-1')).toBe(false), 5_000);
  });

  it('counts link requests per subject and kind in fixed windows, all at once counted exactly', async () => {
    const counts = await Promise.all(
      Array.from({ length: 12 }, () => links.requested('address', '203.0.113.7', 60_000, T + 5_000)),
    );
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(counts[0]?.windowEnd).toBe(T + 60_000);
    expect(await links.requested('email', '203.0.113.7', 60_000, T + 5_000)).toEqual({
      count: 1,
      windowEnd: T + 60_000,
    });
    expect(await links.requested('address', '203.0.113.7', 60_000, T + 65_000)).toEqual({
      count: 1,
      windowEnd: T + 120_000,
    });
    expect(await links.requested('email', 'ann@example.com', 900_000, T)).toMatchObject({ count: 1 });
  });
});
