import type { EventBus, OutgoingMessage } from '@notify/bus';
import { EmbeddedCoordinationStore, ScheduledSendsStore } from '@notify/cache';
import { Queues, type SendRequested, Topics } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { aScope, aSendRequest, FakeClock, tempDir, testLogger } from '@notify/testing';
import { RELEASE_LEASE_MS, ReleaseDueSendsUseCase } from './release-due-sends.usecase';

describe('ReleaseDueSendsUseCase', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let scheduled: ScheduledSendsStore;
  let published: OutgoingMessage[];
  let clock: FakeClock;
  let release: ReleaseDueSendsUseCase;
  let publishFails: boolean;

  beforeEach(async () => {
    dir = await tempDir('notify-release-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger('coordination') });
    scheduled = new ScheduledSendsStore(coordination, loadAppConfig({}).limits);
    published = [];
    publishFails = false;
    clock = new FakeClock();
    const bus = {
      publish: async (messages: readonly OutgoingMessage[]) => {
        if (publishFails) throw new Error('no broker');
        published.push(...messages);
      },
    };
    release = new ReleaseDueSendsUseCase(
      scheduled,
      bus as unknown as EventBus,
      testLogger('scheduler'),
      clock,
    );
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  const hold = (trackingId: string, inMs: number) =>
    scheduled.hold(
      aSendRequest({ trackingId, send: { userId: `user-of-${trackingId}` } }),
      clock.now() + inMs,
    );

  it('hands a due send to the router as released, keyed by its user, once', async () => {
    await hold('t1', 60_000);
    expect(await release.execute()).toBe(0);
    clock.advance(60_000);
    expect(await release.execute()).toBe(1);
    expect(published).toEqual([
      {
        topic: Topics.sendRequests,
        key: 'acc-1/env-1/user-of-t1',
        value: expect.objectContaining({ trackingId: 't1', released: true }),
      },
    ]);
    expect(await release.execute()).toBe(0);
    expect(await scheduled.waiting(aScope(), 't1')).toBeUndefined();
  });

  it('releases the earliest first, and leaves what is not yet due', async () => {
    await hold('later', 2_000);
    await hold('sooner', 1_000);
    await hold('tomorrow', 86_400_000);
    clock.advance(5_000);
    expect(await release.execute()).toBe(2);
    expect(published.map((m) => (m.value as SendRequested).trackingId)).toEqual(['sooner', 'later']);
    expect(await scheduled.waiting(aScope(), 'tomorrow')).toBeDefined();
  });

  it('drops a queued send whose payload does not parse, releasing the others', async () => {
    await coordination.schedule(Queues.scheduledSends, {
      id: 'junk',
      dueAt: clock.now(),
      payload: '{"not":',
    });
    await hold('t1', 0);
    expect(await release.execute()).toBe(2);
    expect(published.map((m) => (m.value as SendRequested).trackingId)).toEqual(['t1']);
    expect(await coordination.getScheduled(Queues.scheduledSends, 'junk')).toBeUndefined();
  });

  it('leaves a send it could not publish claimed, due again once the lease ends', async () => {
    await hold('t1', 0);
    publishFails = true;
    await expect(release.execute()).rejects.toThrow('no broker');
    publishFails = false;
    expect(await release.execute()).toBe(0);
    clock.advance(RELEASE_LEASE_MS + 1);
    expect(await release.execute()).toBe(1);
  });
});
