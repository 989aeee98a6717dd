import { requireBackend } from '@notify/testing';
import { createHash } from 'node:crypto';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { IdempotencyRecordsStore } from './idempotency-records.store';

describe.each(['embedded', 'redis'] as const)('IdempotencyRecordsStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let records: IdempotencyRecordsStore;
  const a = { accountId: 'acct', envId: 'env-a' };
  const b = { accountId: 'acct', envId: 'env-b' };

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    records = new IdempotencyRecordsStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('keeps the first record of a key, per environment, whoever races for it', async () => {
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        records.claim(a, 'key-1', { fingerprint: 'f', trackingId: `t${i}` }),
      ),
    );
    expect(new Set(claims.map((c) => c.trackingId)).size).toBe(1);
    expect(await records.claim(a, 'key-1', { fingerprint: 'g', trackingId: 'late' })).toEqual(claims[0]);
    expect(await records.claim(b, 'key-1', { fingerprint: 'g', trackingId: 'other-env' })).toEqual({
      fingerprint: 'g',
      trackingId: 'other-env',
    });
  });

  it('answers a retry with the recorded answer, seen from another process', async () => {
    await records.claim(a, 'key-2', { fingerprint: 'f', trackingId: 't' });
    await records.answered(a, 'key-2', { fingerprint: 'f', trackingId: 't', messages: ['warning'] });
    // The embedded store serves one process, so it is its own peer.
    const other = adapter === 'embedded' ? coordination : openStore(location);
    const peer = new IdempotencyRecordsStore(other);
    try {
      expect(await peer.claim(a, 'key-2', { fingerprint: 'f', trackingId: 'new' })).toEqual({
        fingerprint: 'f',
        trackingId: 't',
        messages: ['warning'],
      });
    } finally {
      if (other !== coordination) await other.close();
    }
  });

  it('stores a record under the hash of its key, where records written before this store are read', async () => {
    const hash = createHash('sha256').update('key-3').digest('base64url');
    await coordination.set(
      `idempotency/acct/env-a/${hash}`,
      JSON.stringify({ fingerprint: 'old', trackingId: 'old-t', messages: [] }),
      60_000,
    );
    expect(await records.claim(a, 'key-3', { fingerprint: 'f', trackingId: 't' })).toEqual({
      fingerprint: 'old',
      trackingId: 'old-t',
      messages: [],
    });
    await records.claim(a, 'key-4', { fingerprint: 'f', trackingId: 't4' });
    const stored = await coordination.get(
      `idempotency/acct/env-a/${createHash('sha256').update('key-4').digest('base64url')}`,
    );
    expect(JSON.parse(stored ?? '{}')).toEqual({ fingerprint: 'f', trackingId: 't4' });
  });
});
