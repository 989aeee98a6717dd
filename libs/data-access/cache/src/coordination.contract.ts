import { eventually, range, requireBackend, sleep } from '@notify/testing';
import type { ClaimedItem, CoordinationStore, ScheduledItem } from './cache.port';
import { EmbeddedCoordinationStore } from './embedded/embedded.coordination';
import { newLocation, openStore, type StoreLocation } from './testing/coordination-harness';

/** Fake clock for the delayed queue: claims take `now` from the caller, so no test sleeps for a lease. */
const T = 1_700_000_000_000;
const LEASE = 5_000;
const QUEUE = 'sends';

const anItem = (id: string, dueAt = T, payload = `payload of ${id}`): ScheduledItem => ({
  id,
  payload,
  dueAt,
});
const ids = (items: readonly ClaimedItem[]) => items.map((item) => item.id);

describe.each(['embedded', 'redis'] as const)('CoordinationStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let store: CoordinationStore;
  const peers: CoordinationStore[] = [];

  /** Another replica on its own connections; the embedded store serves one process, so it is its own peer. */
  const peer = (): CoordinationStore => {
    if (adapter === 'embedded') return store;
    const other = openStore(location);
    peers.push(other);
    return other;
  };

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    store = openStore(location);
  });

  afterEach(async () => {
    await Promise.all(peers.splice(0).map((p) => p.close()));
    await store.close();
    await location.cleanup();
  });

  describe('counters and keys', () => {
    it('creates a counter with a TTL, after which it is gone and starts again', async () => {
      expect(await store.increment('hits', 1, 300)).toBe(1);
      expect(await store.increment('hits', 2, 300)).toBe(3);
      expect(await store.get('hits')).toBe('3');
      await eventually(async () => expect(await store.get('hits')).toBeUndefined(), 5_000);
      expect(await store.increment('hits', 1, 300)).toBe(1);
    });

    it('sets the TTL only when it creates the counter', async () => {
      await store.increment('window', 1, 300);
      await store.increment('window', 1, 60_000);
      await eventually(async () => expect(await store.get('window')).toBeUndefined(), 5_000);
    });

    it('increments atomically under 200 concurrent calls from two replicas', async () => {
      const other = peer();
      const results = await Promise.all(
        range(200).map((i) => (i % 2 === 0 ? store : other).increment('burst', 1, 60_000)),
      );
      expect([...results].sort((a, b) => a - b)).toEqual(range(200).map((i) => i + 1));
      expect(await store.get('burst')).toBe('200');
    });

    it('lets only the first of 50 concurrent setIfAbsent calls win', async () => {
      const other = peer();
      const won = await Promise.all(
        range(50).map((i) => (i % 2 === 0 ? store : other).setIfAbsent('dedup', `caller-${i}`, 60_000)),
      );
      const winners = range(50).filter((i) => won[i]);
      expect(winners).toHaveLength(1);
      expect(await store.get('dedup')).toBe(`caller-${winners[0]}`);
    });

    it('lets setIfAbsent store a key again once it expired', async () => {
      expect(await store.setIfAbsent('idem', 'first', 300)).toBe(true);
      expect(await store.setIfAbsent('idem', 'second', 300)).toBe(false);
      expect(await store.get('idem')).toBe('first');
      await eventually(
        async () => expect(await store.setIfAbsent('idem', 'third', 60_000)).toBe(true),
        5_000,
      );
      expect(await store.get('idem')).toBe('third');
    });

    it('overwrites a key with set, whatever was there, with a fresh TTL', async () => {
      expect(await store.setIfAbsent('lease', 'sending', 60_000)).toBe(true);
      await store.set('lease', 'sent', 300);
      expect(await store.get('lease')).toBe('sent');
      expect(await store.setIfAbsent('lease', 'again', 60_000)).toBe(false);
      await eventually(async () => expect(await store.get('lease')).toBeUndefined(), 5_000);
      await expect(store.set('lease', 'v', 0)).rejects.toThrow(RangeError);
    });

    it('deletes keys, and a missing key reads as undefined', async () => {
      expect(await store.get('missing')).toBeUndefined();
      await store.delete('missing');
      await store.setIfAbsent('k', 'v', 60_000);
      await store.delete('k');
      expect(await store.get('k')).toBeUndefined();
      expect(await store.setIfAbsent('k', 'again', 60_000)).toBe(true);
    });

    it('refuses what Redis refuses: incrementing text, fractional or empty TTLs', async () => {
      await store.setIfAbsent('text', 'not a number', 60_000);
      await expect(store.increment('text', 1, 60_000)).rejects.toThrow();
      expect(await store.get('text')).toBe('not a number');
      await expect(store.increment('c', 1, 0)).rejects.toThrow(RangeError);
      await expect(store.setIfAbsent('c', 'v', 1.5)).rejects.toThrow(RangeError);
      await expect(store.increment('c', 0.5, 1_000)).rejects.toThrow(RangeError);
    });
  });

  describe('delayed queue', () => {
    it('does not claim an item before it is due, and claims it at its due time', async () => {
      await store.schedule(QUEUE, anItem('a', T + 1_000));
      expect(await store.claimDue(QUEUE, T, 10, LEASE)).toEqual([]);
      expect(await store.claimDue(QUEUE, T + 999, 10, LEASE)).toEqual([]);
      const [claimed, ...rest] = await store.claimDue(QUEUE, T + 1_000, 10, LEASE);
      expect(rest).toEqual([]);
      expect(claimed).toEqual({
        id: 'a',
        payload: 'payload of a',
        dueAt: T + 1_000,
        claimToken: expect.any(String),
      });
    });

    it('claims due items earliest first, at most `limit` at a time', async () => {
      for (const [id, offset] of [
        ['c', 30],
        ['a', 10],
        ['d', 40],
        ['b', 20],
      ] as const) {
        await store.schedule(QUEUE, anItem(id, T + offset));
      }
      expect(ids(await store.claimDue(QUEUE, T + 35, 2, LEASE))).toEqual(['a', 'b']);
      expect(ids(await store.claimDue(QUEUE, T + 35, 2, LEASE))).toEqual(['c']);
      expect(await store.claimDue(QUEUE, T + 35, 2, LEASE)).toEqual([]);
    });

    it('keeps queues apart', async () => {
      await store.schedule('alpha', anItem('x', T, 'in alpha'));
      await store.schedule('alpha-2', anItem('x', T, 'in alpha-2'));
      expect((await store.claimDue('alpha', T, 10, LEASE)).map((i) => i.payload)).toEqual(['in alpha']);
      expect(await store.cancel('alpha', 'x')).toBe(true);
      expect(await store.getScheduled('alpha-2', 'x')).toEqual(anItem('x', T, 'in alpha-2'));
    });

    it('hands every item to exactly one of two competing workers', async () => {
      const items = range(200).map((i) => anItem(`item-${i}`, T + i));
      await Promise.all(items.map((item) => store.schedule(QUEUE, item)));
      const workers = [store, peer()];
      await Promise.all(workers.map((w) => w.probe()));

      const claimedBy = await Promise.all(
        workers.map(async (worker) => {
          const mine: string[] = [];
          for (;;) {
            const batch = await worker.claimDue(QUEUE, T + 1_000, 7, 60_000);
            if (batch.length === 0) return mine;
            expect(batch.length).toBeLessThanOrEqual(7);
            mine.push(...ids(batch));
          }
        }),
      );

      const all = claimedBy.flat();
      expect(all).toHaveLength(200);
      expect(new Set(all).size).toBe(200);
      expect([...all].sort()).toEqual(items.map((i) => i.id).sort());
      for (const mine of claimedBy) expect(mine.length).toBeGreaterThan(0);
    });

    it('makes an unacknowledged claim due again after its lease, voiding the old token', async () => {
      await store.schedule(QUEUE, anItem('a', T));
      const [first] = await store.claimDue(QUEUE, T, 10, LEASE);
      expect(await store.claimDue(QUEUE, T + LEASE - 1, 10, LEASE)).toEqual([]);

      const [second] = await peer().claimDue(QUEUE, T + LEASE, 10, LEASE);
      expect(second).toMatchObject({ id: 'a', dueAt: T });
      expect(second?.claimToken).not.toBe(first?.claimToken);
      expect(await store.ack(QUEUE, 'a', first?.claimToken ?? '')).toBe(false);
      expect(await store.ack(QUEUE, 'a', second?.claimToken ?? '')).toBe(true);
    });

    it('reschedules: the new due time replaces the old and the earlier claim is void', async () => {
      await store.schedule(QUEUE, anItem('a', T, 'v1'));
      const [claimed] = await store.claimDue(QUEUE, T, 10, LEASE);
      await store.schedule(QUEUE, anItem('a', T + 10_000, 'v2'));

      expect(await store.getScheduled(QUEUE, 'a')).toEqual(anItem('a', T + 10_000, 'v2'));
      expect(await store.ack(QUEUE, 'a', claimed?.claimToken ?? '')).toBe(false);
      expect(await store.claimDue(QUEUE, T + LEASE, 10, LEASE)).toEqual([]);
      expect(await store.claimDue(QUEUE, T + 9_999, 10, LEASE)).toEqual([]);
      expect(await store.claimDue(QUEUE, T + 10_000, 10, LEASE)).toMatchObject([
        { id: 'a', payload: 'v2', dueAt: T + 10_000 },
      ]);
    });

    it('cancels due and claimed items alike', async () => {
      await store.schedule(QUEUE, anItem('claimed', T));
      await store.schedule(QUEUE, anItem('waiting', T + 1));
      const [claimed] = await store.claimDue(QUEUE, T, 1, LEASE);
      expect(claimed?.id).toBe('claimed');

      expect(await store.cancel(QUEUE, 'claimed')).toBe(true);
      expect(await store.cancel(QUEUE, 'waiting')).toBe(true);
      expect(await store.cancel(QUEUE, 'waiting')).toBe(false);
      expect(await store.cancel(QUEUE, 'never-scheduled')).toBe(false);
      expect(await store.getScheduled(QUEUE, 'claimed')).toBeUndefined();
      expect(await store.getScheduled(QUEUE, 'waiting')).toBeUndefined();
      expect(await store.claimDue(QUEUE, T + 1_000_000, 10, LEASE)).toEqual([]);
      expect(await store.ack(QUEUE, 'claimed', claimed?.claimToken ?? '')).toBe(false);
    });

    it('removes an item on ack, once', async () => {
      await store.schedule(QUEUE, anItem('a', T));
      expect(await store.getScheduled(QUEUE, 'a')).toEqual(anItem('a', T));
      expect(await store.getScheduled(QUEUE, 'b')).toBeUndefined();
      const [claimed] = await store.claimDue(QUEUE, T, 10, LEASE);
      expect(await store.getScheduled(QUEUE, 'a')).toEqual(anItem('a', T));

      expect(await store.ack(QUEUE, 'a', 'not-the-token')).toBe(false);
      expect(await store.ack(QUEUE, 'a', claimed?.claimToken ?? '')).toBe(true);
      expect(await store.ack(QUEUE, 'a', claimed?.claimToken ?? '')).toBe(false);
      expect(await store.getScheduled(QUEUE, 'a')).toBeUndefined();
      expect(await store.claimDue(QUEUE, T + 1_000_000, 10, LEASE)).toEqual([]);
    });
  });

  describe('delayed queue quotas', () => {
    const quota = (maxItems: number, maxBytes: number) => ({ pool: 'env-1', maxItems, maxBytes });

    it('counts items and payload bytes per pool, refusing what would pass either cap', async () => {
      expect(await store.scheduleWithin(QUEUE, anItem('a', T, 'x'.repeat(40)), quota(2, 100))).toBe(
        'scheduled',
      );
      expect(await store.scheduleWithin(QUEUE, anItem('b', T, 'x'.repeat(70)), quota(2, 100))).toBe(
        'too-large',
      );
      expect(await store.scheduleWithin(QUEUE, anItem('b', T, 'x'.repeat(60)), quota(2, 100))).toBe(
        'scheduled',
      );
      expect(await store.scheduleWithin(QUEUE, anItem('c', T, 'x'), quota(2, 100))).toBe('too-many');
      expect(await store.getScheduled(QUEUE, 'c')).toBeUndefined();
      // Another pool, and the same pool in another queue, have their own share.
      expect(
        await store.scheduleWithin(QUEUE, anItem('c', T, 'x'), { ...quota(2, 100), pool: 'env-2' }),
      ).toBe('scheduled');
      expect(await store.scheduleWithin('other', anItem('c', T, 'x'), quota(2, 100))).toBe('scheduled');
    });

    it('counts bytes as UTF-8', async () => {
      expect(await store.scheduleWithin(QUEUE, anItem('a', T, 'é'.repeat(6)), quota(5, 11))).toBe(
        'too-large',
      );
      expect(await store.scheduleWithin(QUEUE, anItem('a', T, 'é'.repeat(6)), quota(5, 12))).toBe(
        'scheduled',
      );
    });

    it('counts a replaced item once, at its new size', async () => {
      await store.scheduleWithin(QUEUE, anItem('a', T, 'x'.repeat(50)), quota(1, 100));
      expect(await store.scheduleWithin(QUEUE, anItem('a', T + 1, 'x'.repeat(100)), quota(1, 100))).toBe(
        'scheduled',
      );
      expect(await store.scheduleWithin(QUEUE, anItem('a', T, 'x'.repeat(101)), quota(1, 100))).toBe(
        'too-large',
      );
      expect(await store.getScheduled(QUEUE, 'a')).toEqual(anItem('a', T + 1, 'x'.repeat(100)));
    });

    it('gives an item its share back when it is acknowledged, cancelled or scheduled plainly', async () => {
      await store.scheduleWithin(QUEUE, anItem('acked', T, 'x'.repeat(10)), quota(3, 30));
      await store.scheduleWithin(QUEUE, anItem('cancelled', T + 1, 'x'.repeat(10)), quota(3, 30));
      await store.scheduleWithin(QUEUE, anItem('plain', T + 1, 'x'.repeat(10)), quota(3, 30));
      expect(await store.scheduleWithin(QUEUE, anItem('d', T, 'x'), quota(3, 30))).toBe('too-many');

      const [claimed] = await store.claimDue(QUEUE, T, 1, LEASE);
      expect(await store.ack(QUEUE, 'acked', claimed?.claimToken ?? '')).toBe(true);
      expect(await store.cancel(QUEUE, 'cancelled')).toBe(true);
      await store.schedule(QUEUE, anItem('plain', T + 1, 'x'.repeat(10)));
      // Nothing of the three is counted now: the pool takes three full-size items again.
      for (const id of ['d', 'e', 'f'])
        expect(await store.scheduleWithin(QUEUE, anItem(id, T, 'x'.repeat(10)), quota(3, 30))).toBe(
          'scheduled',
        );
    });
  });

  describe('buffers', () => {
    const POOL = 'acc/env';
    const limits = (maxItems: number, maxBytes: number, poolMaxBytes: number) => ({
      maxItems,
      maxBytes,
      poolMaxBytes,
    });
    const roomy = limits(100, 10_000, 10_000);
    const all = (buffer: string, pool = POOL) => store.readBuffer(pool, buffer, 0, 1_000);

    it('keeps items in append order, each id once, and reads them in bounded ranges', async () => {
      for (const n of range(5))
        expect(await store.append(POOL, 'w', { id: `t${n}`, value: `v${n}` }, roomy, 60_000)).toBe(
          'appended',
        );
      expect(await store.append(POOL, 'w', { id: 't2', value: 'again' }, roomy, 60_000)).toBe('present');
      expect(await all('w')).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
      expect(await store.readBuffer(POOL, 'w', 0, 2)).toEqual(['v0', 'v1']);
      expect(await store.readBuffer(POOL, 'w', 2, 2)).toEqual(['v2', 'v3']);
      expect(await store.readBuffer(POOL, 'w', 4, 2)).toEqual(['v4']);
      expect(await store.readBuffer(POOL, 'w', 5, 2)).toEqual([]);
      expect(await all('never')).toEqual([]);
      await expect(store.readBuffer(POOL, 'w', 0, 0)).rejects.toThrow(RangeError);
    });

    it('drops only the values a reader read: those appended after survive, with their bytes', async () => {
      for (const n of range(3))
        await store.append(POOL, 'd', { id: `t${n}`, value: `v${n}` }, limits(100, 10_000, 8), 60_000);
      // The pool is full (6 of 8 bytes; a third value would not fit); dropping two gives back 4.
      expect(await store.append(POOL, 'e', { id: 'x', value: 'xyz' }, limits(100, 10_000, 8), 60_000)).toBe(
        'pool-full',
      );
      expect(await store.dropBuffer(POOL, 'd', 2)).toBe(1);
      expect(await all('d')).toEqual(['v2']);
      expect(await store.append(POOL, 'e', { id: 'x', value: 'xyz' }, limits(100, 10_000, 8), 60_000)).toBe(
        'appended',
      );
      // Dropping what is there (or more) removes the buffer and all of its bytes: 5 fit again.
      expect(await store.dropBuffer(POOL, 'd', 1)).toBe(0);
      expect(await all('d')).toEqual([]);
      expect(
        await store.append(POOL, 'd', { id: 't3', value: 'abcde' }, limits(100, 10_000, 8), 60_000),
      ).toBe('appended');
      expect(await all('d')).toEqual(['abcde']);
      await expect(store.dropBuffer(POOL, 'd', -1)).rejects.toThrow(RangeError);
    });

    it('refuses an item that would pass the buffer caps (count or UTF-8 bytes), holding nothing of it', async () => {
      expect(
        await store.append(POOL, 'w', { id: 'a', value: 'é'.repeat(4) }, limits(2, 10, 100), 60_000),
      ).toBe('appended');
      expect(await store.append(POOL, 'w', { id: 'b', value: 'xxx' }, limits(2, 10, 100), 60_000)).toBe(
        'buffer-full',
      );
      expect(await store.append(POOL, 'w', { id: 'b', value: 'xx' }, limits(2, 10, 100), 60_000)).toBe(
        'appended',
      );
      expect(await store.append(POOL, 'w', { id: 'c', value: '' }, limits(2, 10, 100), 60_000)).toBe(
        'buffer-full',
      );
      expect(await all('w')).toEqual(['éééé', 'xx']);
    });

    it('counts the bytes of every buffer of a pool together, and gives them back on drop', async () => {
      const capped = limits(100, 100, 100);
      expect(await store.append(POOL, 'w1', { id: 'a', value: 'x'.repeat(60) }, capped, 60_000)).toBe(
        'appended',
      );
      expect(await store.append(POOL, 'w2', { id: 'a', value: 'x'.repeat(41) }, capped, 60_000)).toBe(
        'pool-full',
      );
      expect(await store.append('other', 'w2', { id: 'a', value: 'x'.repeat(41) }, capped, 60_000)).toBe(
        'appended',
      );
      expect(await store.append(POOL, 'w2', { id: 'a', value: 'x'.repeat(40) }, capped, 60_000)).toBe(
        'appended',
      );
      await store.dropBuffer(POOL, 'w1');
      expect(await all('w1')).toEqual([]);
      expect(await store.append(POOL, 'w3', { id: 'a', value: 'x'.repeat(60) }, capped, 60_000)).toBe(
        'appended',
      );
      // A dropped buffer starts again empty, its ids forgotten.
      expect(await store.append(POOL, 'w1', { id: 'a', value: 'new' }, capped, 60_000)).toBe('pool-full');
      await store.dropBuffer(POOL, 'w2');
      await store.dropBuffer(POOL, 'w2');
      expect(await store.append(POOL, 'w1', { id: 'a', value: 'new' }, capped, 60_000)).toBe('appended');
      expect(await all('w1')).toEqual(['new']);
      expect(await all('w2', 'other')).toEqual(['x'.repeat(41)]);
    });

    it('expires a buffer after its longest TTL', async () => {
      await store.append(POOL, 'w', { id: 'a', value: 'v' }, roomy, 400);
      await store.append(POOL, 'w', { id: 'b', value: 'v' }, roomy, 200);
      await sleep(250);
      expect(await all('w')).toEqual(['v', 'v']);
      await eventually(async () => expect(await all('w')).toEqual([]), 5_000);
      expect(await store.append(POOL, 'w', { id: 'a', value: 'again' }, roomy, 60_000)).toBe('appended');
      expect(await all('w')).toEqual(['again']);
    });

    it('holds every one of 100 concurrent appends from two replicas within the cap, once', async () => {
      const other = peer();
      const outcomes = await Promise.all(
        range(100).map((i) =>
          (i % 2 === 0 ? store : other).append(
            POOL,
            'w',
            { id: `t${i % 60}`, value: 'x'.repeat(10) },
            limits(100, 400, 10_000),
            60_000,
          ),
        ),
      );
      expect(outcomes.filter((o) => o === 'appended')).toHaveLength(40);
      expect(await all('w')).toHaveLength(40);
    });
  });

  describe('pub/sub', () => {
    it('delivers to every subscriber of a channel and stops after unsubscribe', async () => {
      const other = peer();
      const [first, second, elsewhere]: string[][] = [[], [], []];
      const offFirst = await store.subscribe('news', (m) => first.push(m));
      const offSecond = await other.subscribe('news', (m) => second.push(m));
      await store.subscribe('sports', (m) => elsewhere.push(m));

      await other.publish('news', 'one');
      await eventually(() => {
        expect(first).toEqual(['one']);
        expect(second).toEqual(['one']);
      });

      await offFirst();
      await store.publish('news', 'two');
      await eventually(() => expect(second).toEqual(['one', 'two']));

      await offSecond();
      await store.publish('news', 'three');
      await store.publish('sports', 'goal');
      await eventually(() => expect(elsewhere).toEqual(['goal']));
      await sleep(100);
      expect(first).toEqual(['one']);
      expect(second).toEqual(['one', 'two']);
    });

    it('keeps a channel for its remaining listeners when one of them unsubscribes', async () => {
      const received: string[] = [];
      const listener = (m: string) => received.push(m);
      const off = await store.subscribe('alerts', listener);
      await store.subscribe('alerts', listener);

      await store.publish('alerts', 'a');
      await eventually(() => expect(received).toEqual(['a', 'a']));
      await off();
      await off();
      await store.publish('alerts', 'b');
      await eventually(() => expect(received).toEqual(['a', 'a', 'b']));
    });
  });

  it('answers its readiness probe', async () => {
    await expect(store.probe()).resolves.toBeUndefined();
  });

  if (adapter === 'redis') {
    it('keeps deployments with different key prefixes apart', async () => {
      const neighbour = openStore({ ...location, where: `${location.where}neighbour:` });
      peers.push(neighbour);
      await store.increment('shared-name', 5, 60_000);
      await store.schedule(QUEUE, anItem('a'));
      expect(await neighbour.get('shared-name')).toBeUndefined();
      expect(await neighbour.claimDue(QUEUE, T, 10, LEASE)).toEqual([]);
    });
  }

  if (adapter === 'embedded') {
    it('keeps scheduled items, leases and counters across a restart', async () => {
      await store.increment('sent-today', 5, 60_000);
      await store.schedule(QUEUE, anItem('waiting', T));
      await store.schedule(QUEUE, anItem('leased', T - 1));
      const [leased] = await store.claimDue(QUEUE, T - 1, 1, LEASE);
      expect(leased?.id).toBe('leased');
      await store.close();

      store = openStore(location);
      expect(await store.get('sent-today')).toBe('5');
      expect(await store.increment('sent-today', 1, 60_000)).toBe(6);
      expect(await store.getScheduled(QUEUE, 'waiting')).toEqual(anItem('waiting', T));
      const [claimed, ...rest] = await store.claimDue(QUEUE, T, 10, LEASE);
      expect(claimed?.id).toBe('waiting');
      expect(rest).toEqual([]);
      expect(await store.ack(QUEUE, 'waiting', claimed?.claimToken ?? '')).toBe(true);
      expect(await store.ack(QUEUE, 'leased', leased?.claimToken ?? '')).toBe(true);
    });

    it('keeps buffers, pool totals and quotas across a restart', async () => {
      const capped = { maxItems: 10, maxBytes: 100, poolMaxBytes: 100 };
      await store.append('pool', 'w', { id: 'a', value: 'x'.repeat(60) }, capped, 60_000);
      await store.scheduleWithin(QUEUE, anItem('s', T, 'x'.repeat(10)), {
        pool: 'p',
        maxItems: 1,
        maxBytes: 100,
      });
      await store.close();

      store = openStore(location);
      expect(await store.readBuffer('pool', 'w', 0, 10)).toEqual(['x'.repeat(60)]);
      expect(await store.append('pool', 'w2', { id: 'a', value: 'x'.repeat(41) }, capped, 60_000)).toBe(
        'pool-full',
      );
      expect(
        await store.scheduleWithin(QUEUE, anItem('t', T, 'x'), { pool: 'p', maxItems: 1, maxBytes: 100 }),
      ).toBe('too-many');
    });

    it('refuses a second process on the same data directory', () => {
      expect(() => openStore(location)).toThrow(/in use by process/);
    });

    it('sweeps expired keys from disk and keeps live ones', async () => {
      if (!(store instanceof EmbeddedCoordinationStore)) throw new Error('expected the embedded store');
      await store.increment('short-1', 1, 60_000);
      await store.setIfAbsent('short-2', 'v', 60_000);
      await store.setIfAbsent('long', 'v', 600_000);
      expect(await store.sweepExpired(Date.now() + 120_000)).toBe(2);
      expect(await store.sweepExpired(Date.now() + 120_000)).toBe(0);
      expect(await store.get('long')).toBe('v');
      expect(await store.get('short-2')).toBeUndefined();
    });
  }
});
