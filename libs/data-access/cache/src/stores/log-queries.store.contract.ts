import { requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { LogQueriesStore } from './log-queries.store';

describe.each(['embedded', 'redis'] as const)('LogQueriesStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let queries: LogQueriesStore;
  const a = { accountId: 'acct', envId: 'env-a' };
  const b = { accountId: 'acct', envId: 'env-b' };

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    queries = new LogQueriesStore(coordination);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('grants at most the limit of slots per environment at once, and a slot given back is granted again', async () => {
    const taken = await Promise.all(Array.from({ length: 5 }, () => queries.takeSlot(a, 3)));
    expect(taken.filter(Boolean)).toHaveLength(3);
    expect(await queries.takeSlot(b, 3)).toBe(true);
    expect(await queries.takeSlot(a, 3)).toBe(false);
    await queries.giveSlotBack(a);
    expect(await queries.takeSlot(a, 3)).toBe(true);
    expect(await queries.takeSlot(a, 3)).toBe(false);
  });

  it('replaces a result, answers it to another process, and keeps environments apart', async () => {
    await queries.putResult(a, 'q1', { status: 'running', logs: [] });
    await queries.putResult(a, 'q1', { status: 'complete', logs: [{ id: 1 }] });
    // The embedded store serves one process, so it is its own peer.
    const other = adapter === 'embedded' ? coordination : openStore(location);
    try {
      expect(await new LogQueriesStore(other).result(a, 'q1')).toEqual({
        status: 'complete',
        logs: [{ id: 1 }],
      });
    } finally {
      if (other !== coordination) await other.close();
    }
    expect(await queries.result(b, 'q1')).toBeUndefined();
    expect(await queries.result(a, 'q2')).toBeUndefined();
  });

  it('keeps results and slots under the keys used before this store', async () => {
    await coordination.set('log-query/acct/env-a/old', JSON.stringify({ status: 'failed' }), 60_000);
    expect(await queries.result(a, 'old')).toEqual({ status: 'failed' });
    await coordination.increment('log-query-slots/acct/env-a', 2, 60_000);
    expect(await queries.takeSlot(a, 2)).toBe(false);
  });
});
