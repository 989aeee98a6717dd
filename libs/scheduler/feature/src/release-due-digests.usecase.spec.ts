import type { EventBus, OutgoingMessage } from '@notify/bus';
import { DigestWindowsStore, EmbeddedCoordinationStore } from '@notify/cache';
import { type DigestItem, Queues, type SendRequested } from '@notify/domain';
import { aDigestGroup, aDigestItem, FakeClock, tempDir, testLogger } from '@notify/testing';
import { ReleaseDueDigestsUseCase } from './release-due-digests.usecase';

const MB = 1_048_576;
const scope = { accountId: 'acc', envId: 'env' };
const limits = { windowBytes: 1 * MB, environmentBytes: 3 * MB };
const DAY = 86_400_000;

const item = (n: number, parameter = 'x'): DigestItem => ({
  trackingId: `t-${n}`,
  receivedAt: n,
  test: false,
  request: '{}',
  send: {
    notificationId: 'news',
    userId: 'u',
    recipient: { email: 'u@example.com' },
    parameters: { n, parameter },
    email: { subject: `s${n}`, html: 'h' },
  },
});

describe('digest windows and their release', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let store: EmbeddedCoordinationStore;
  let published: OutgoingMessage[];

  const open = () => {
    store = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger('coordination') });
    return new DigestWindowsStore(store, limits);
  };
  /** Runs while the digest is published: what the router does meanwhile. */
  let duringPublish: () => Promise<unknown> = async () => undefined;
  const release = () => {
    const bus = {
      publish: async (messages: readonly OutgoingMessage[]) => {
        published.push(...messages);
        await duringPublish();
      },
    };
    return new ReleaseDueDigestsUseCase(
      new DigestWindowsStore(store, limits),
      bus as unknown as EventBus,
      testLogger('scheduler'),
      { now: () => Date.now() + 1_000 },
    ).execute();
  };
  const due = async (window: string) =>
    store.schedule(Queues.digests, {
      id: window,
      dueAt: Date.now(),
      payload: JSON.stringify({ key: window, ...scope, channel: 'EMAIL', mode: 'hourly' }),
    });

  beforeEach(async () => {
    dir = await tempDir('notify-digests-');
    published = [];
    duringPublish = async () => undefined;
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('refuses a send larger than the window cap, and holds no more than the environment cap', async () => {
    const windows = open();
    expect(await windows.hold(scope, 'w1', item(1, 'x'.repeat(8 * MB)), DAY)).toBe('window-full');
    expect(await windows.hold(scope, 'w1', item(2), DAY)).toBe('held');
    // Three windows of 0.9 MB each fit in 3 MB; a fourth does not.
    for (const window of ['w2', 'w3', 'w4'])
      expect(await windows.hold(scope, window, item(3, 'x'.repeat(0.9 * MB)), DAY)).toBe('held');
    expect(await windows.hold(scope, 'w5', item(4, 'x'.repeat(0.9 * MB)), DAY)).toBe('environment-full');
    // Another environment has its own share.
    expect(await windows.hold({ ...scope, envId: 'other' }, 'w5', item(4, 'x'.repeat(0.9 * MB)), DAY)).toBe(
      'held',
    );
    expect((await windows.read(scope, 'w1')).items.map((i) => i.trackingId)).toEqual(['t-2']);
  });

  it('releases a window held before a restart as one digest, leaving out a record that does not parse', async () => {
    const windows = open();
    await windows.hold(scope, 'w', item(1), DAY);
    await store.append(
      'digests/acc/env',
      'w',
      { id: 'poison', value: '{"not":"a send"' },
      { maxItems: 1_000, maxBytes: MB, poolMaxBytes: 3 * MB },
      DAY,
    );
    await windows.hold(scope, 'w', item(2), DAY);
    await due('w');
    await store.close();

    open();
    expect(await release()).toBe(1);
    expect(published).toHaveLength(1);
    const digest = published[0]?.value as SendRequested;
    expect(digest.digest?.trackingIds).toEqual(['t-1', 't-2']);
    expect(digest.send.parameters).toMatchObject({ count: 2 });
    // Released once: the window and its queue entry are gone, its bytes given back.
    expect(await release()).toBe(0);
    expect(await store.readBuffer('digests/acc/env', 'w', 0, 10)).toEqual([]);
  });

  it('gives a released window its bytes back to the environment', async () => {
    const windows = open();
    for (const window of ['w1', 'w2', 'w3'])
      expect(await windows.hold(scope, window, item(1, 'x'.repeat(0.9 * MB)), DAY)).toBe('held');
    expect(await windows.hold(scope, 'w4', item(2, 'x'.repeat(0.9 * MB)), DAY)).toBe('environment-full');
    await due('w1');
    expect(await release()).toBe(1);
    expect(await windows.hold(scope, 'w4', item(2, 'x'.repeat(0.9 * MB)), DAY)).toBe('held');
  });

  it('releases a window held before sends were records (one JSON array under batch/…), then deletes it', async () => {
    open();
    const legacy = 'batch/acc/env/u/news/EMAIL/hourly/1700000000000';
    await store.set(legacy, JSON.stringify([item(1), { not: 'a send' }, item(2)]), DAY);
    await due(legacy);
    expect(await release()).toBe(1);
    const digest = published[0]?.value as SendRequested;
    expect(digest.digest?.trackingIds).toEqual(['t-1', 't-2']);
    expect(await store.get(legacy)).toBeUndefined();
  });

  it('keeps a send held while its window was being released, and releases it as one more digest', async () => {
    const windows = open();
    await windows.hold(scope, 'w', item(1), DAY);
    await due('w');
    duringPublish = async () => {
      duringPublish = async () => undefined;
      await windows.hold(scope, 'w', item(2), DAY);
    };
    expect(await release()).toBe(1);
    expect((published[0]?.value as SendRequested).digest?.trackingIds).toEqual(['t-1']);
    expect(await release()).toBe(1);
    expect((published[1]?.value as SendRequested).digest?.trackingIds).toEqual(['t-2']);
    expect(await release()).toBe(0);
    expect(await store.readBuffer('digests/acc/env', 'w', 0, 10)).toEqual([]);
  });

  it('releases a window when its due time comes, on the clock, and logs what it leaves out', async () => {
    const windows = open();
    const clock = new FakeClock();
    const logger = testLogger('scheduler');
    const errors = jest.spyOn(logger, 'error');
    const releaser = new ReleaseDueDigestsUseCase(
      windows,
      {
        publish: async (messages: readonly OutgoingMessage[]) => void published.push(...messages),
      } as unknown as EventBus,
      logger,
      clock,
    );
    const dueAt = clock.now() + 3_600_000;
    await windows.holdUntil(aDigestGroup(), dueAt, aDigestItem(1), clock.now());
    await windows.holdUntil(aDigestGroup(), dueAt, aDigestItem(2), clock.now());
    await store.schedule(Queues.digests, { id: 'broken', dueAt, payload: 'not json' });
    clock.set(dueAt - 1);
    expect(await releaser.execute()).toBe(0);
    clock.set(dueAt);
    expect(await releaser.execute()).toBe(2);
    expect(published.map((m) => (m.value as SendRequested).digest?.trackingIds)).toEqual([
      ['trk-1', 'trk-2'],
    ]);
    expect(errors).toHaveBeenCalledWith({ id: 'broken' }, expect.stringContaining('does not parse'));
    expect(await releaser.execute()).toBe(0);
  });
});
