import { Queues } from '@notify/domain';
import { aDigestGroup, aDigestItem, eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { DigestWindowsStore } from './digest-windows.store';

const T = 1_700_000_000_000;
const MB = 1_048_576;

describe.each(['embedded', 'redis'] as const)('DigestWindowsStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let windows: DigestWindowsStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    windows = new DigestWindowsStore(coordination, { windowBytes: MB, environmentBytes: 2 * MB });
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('opens a batching window with its first send and keeps its end for the rest, per group', async () => {
    const group = aDigestGroup({ mode: 'instant', batch: 'a' });
    expect(await windows.batchingWindowEnd(group, T, 30_000)).toBe(T + 30_000);
    expect(await windows.batchingWindowEnd(group, T + 5_000, 30_000)).toBe(T + 30_000);
    expect(await windows.batchingWindowEnd({ ...group, batch: 'b' }, T + 5_000, 30_000)).toBe(T + 35_000);
    expect(await coordination.get('batch-window/acc-1/env-1/u-1/welcome/EMAIL/instant/a')).toBe(
      String(T + 30_000),
    );
  });

  it('lets a batching window lapse after its length', async () => {
    const group = aDigestGroup({ mode: 'instant' });
    await windows.batchingWindowEnd(group, Date.now(), 300);
    await eventually(async () => {
      const now = Date.now();
      expect(await windows.batchingWindowEnd(group, now, 300)).toBe(now + 300);
    }, 5_000);
  });

  it("holds sends in their group's window, queues its release once, and releases them in order", async () => {
    const group = aDigestGroup();
    const dueAt = T + 3_600_000;
    expect(await windows.holdUntil(group, dueAt, aDigestItem(1), T)).toBe('held');
    expect(await windows.holdUntil(group, dueAt, aDigestItem(2), T)).toBe('held');
    expect(await windows.holdUntil(group, dueAt, aDigestItem(1), T)).toBe('held');
    expect(await windows.holdUntil(aDigestGroup({ userId: 'u-2' }), dueAt, aDigestItem(3), T)).toBe('held');
    expect(await windows.claimDue(dueAt - 1, 10, 1_000)).toEqual([]);
    const claimed = await windows.claimDue(dueAt, 10, 1_000);
    // The window's name: its group (with an empty batching value) and when it closes.
    const key = `acc-1/env-1/u-1/welcome/EMAIL/hourly//${dueAt}`;
    expect(claimed.map((c) => c.due)).toEqual([
      { key, accountId: 'acc-1', envId: 'env-1', channel: 'EMAIL', mode: 'hourly' },
      expect.objectContaining({ key: `acc-1/env-1/u-2/welcome/EMAIL/hourly//${dueAt}` }),
    ]);
    const [first] = claimed;
    if (first?.due === undefined) throw new Error('no window claimed');
    const { items } = await windows.read(first.due, first.due.key);
    expect(items.map((i) => i.trackingId)).toEqual(['trk-1', 'trk-2']);
    expect(await windows.drop(first.due, first.due.key, items.length)).toBe(0);
    await windows.ack(first);
    // Acknowledged, the first is gone; the second comes due again once its lease ends.
    expect((await windows.claimDue(dueAt + 10_000, 10, 1_000)).map((c) => c.due?.key)).toEqual([
      `acc-1/env-1/u-2/welcome/EMAIL/hourly//${dueAt}`,
    ]);
  });

  it('refuses a send the window has no room for, queueing no release for it', async () => {
    const big = aDigestItem(1, { parameters: { blob: 'x'.repeat(1.2 * MB) } });
    expect(await windows.holdUntil(aDigestGroup(), T + 1_000, big, T)).toBe('window-full');
    expect(await windows.claimDue(T + 1_000, 10, 1_000)).toEqual([]);
  });

  it('queues a claimed release again, due at once, and leaves a queue entry that does not parse without a due', async () => {
    await windows.holdUntil(aDigestGroup(), T, aDigestItem(1), T);
    await coordination.schedule(Queues.digests, { id: 'junk', dueAt: T, payload: '{}' });
    const claimed = await windows.claimDue(T, 10, 60_000);
    expect(claimed.map((c) => c.due === undefined).sort()).toEqual([false, true]);
    const good = claimed.find((c) => c.due !== undefined);
    if (good === undefined) throw new Error('no window claimed');
    await windows.releaseAgain(good, T + 5);
    // The old claim is stale: its ack leaves the new entry.
    await windows.ack(good);
    expect((await windows.claimDue(T + 5, 10, 60_000)).map((c) => c.id)).toEqual([good.id]);
  });
});
