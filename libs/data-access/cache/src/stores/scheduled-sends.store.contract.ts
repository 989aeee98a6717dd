import { Queues, ScheduleQuotaExceededError, scheduledSendId } from '@notify/domain';
import { aScope, aSendRequest, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { ScheduledSendsStore } from './scheduled-sends.store';

const T = 1_700_000_000_000;
const limits = { scheduledSendsPerEnvironment: 2, scheduledBytesPerEnvironment: 64_000 };

describe.each(['embedded', 'redis'] as const)('ScheduledSendsStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let scheduled: ScheduledSendsStore;
  const other = aScope({ envId: 'other' });

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    scheduled = new ScheduledSendsStore(coordination, limits);
  });

  afterEach(async () => {
    await coordination.close();
    await location.cleanup();
  });

  it('keeps a queued send under its environment and tracking id, as the queue held it before', async () => {
    const request = aSendRequest({ trackingId: 't1' });
    await scheduled.queue(request, T);
    expect(await scheduled.waiting(aScope(), 't1')).toEqual({ request, dueAt: T });
    expect(await scheduled.waiting(other, 't1')).toBeUndefined();
    const raw = await coordination.getScheduled(
      Queues.scheduledSends,
      scheduledSendId('acc-1', 'env-1', 't1'),
    );
    expect(raw && JSON.parse(raw.payload)).toEqual(request);
  });

  it("refuses a send past the environment's share, changing nothing, while another environment has its own", async () => {
    await scheduled.queue(aSendRequest({ trackingId: 't1' }), T);
    await scheduled.queue(aSendRequest({ trackingId: 't2' }), T);
    await expect(scheduled.queue(aSendRequest({ trackingId: 't3' }), T)).rejects.toBeInstanceOf(
      ScheduleQuotaExceededError,
    );
    expect(await scheduled.waiting(aScope(), 't3')).toBeUndefined();
    // Replacing a waiting send takes no more room.
    await scheduled.queue(aSendRequest({ trackingId: 't2', request: '{"changed":true}' }), T + 1);
    expect((await scheduled.waiting(aScope(), 't2'))?.request.request).toBe('{"changed":true}');
    await scheduled.queue(aSendRequest({ trackingId: 't3', envId: 'other' }), T);
    // Routing's holds count against no quota.
    await scheduled.hold(aSendRequest({ trackingId: 't4' }), T);
    expect(await scheduled.waiting(aScope(), 't4')).toBeDefined();
  });

  it('cancels a waiting send once, and only in its environment', async () => {
    await scheduled.queue(aSendRequest({ trackingId: 't1' }), T);
    expect(await scheduled.cancel(other, 't1')).toBe(false);
    expect(await scheduled.cancel(aScope(), 't1')).toBe(true);
    expect(await scheduled.cancel(aScope(), 't1')).toBe(false);
    // Its room is given back.
    await scheduled.queue(aSendRequest({ trackingId: 't2' }), T);
    await scheduled.queue(aSendRequest({ trackingId: 't3' }), T);
  });

  it('claims due sends once, earliest first, parsing them, until acknowledged or the lease ends', async () => {
    await scheduled.hold(aSendRequest({ trackingId: 'late' }), T + 2);
    await scheduled.hold(aSendRequest({ trackingId: 'early' }), T + 1);
    await scheduled.hold(aSendRequest({ trackingId: 'future' }), T + 60_000);
    await coordination.schedule(Queues.scheduledSends, { id: 'junk', dueAt: T, payload: '{"nope":1}' });
    const claimed = await scheduled.claimDue(T + 10, 10, 1_000);
    expect(claimed.map((c) => [c.id, c.request?.trackingId])).toEqual([
      ['junk', undefined],
      ['acc-1/env-1/early', 'early'],
      ['acc-1/env-1/late', 'late'],
    ]);
    expect(await scheduled.claimDue(T + 10, 10, 1_000)).toEqual([]);
    for (const claim of claimed.slice(0, 2)) await scheduled.ack(claim);
    const again = await scheduled.claimDue(T + 2_000, 10, 1_000);
    expect(again.map((c) => c.request?.trackingId)).toEqual(['late']);
    expect(await scheduled.waiting(aScope(), 'early')).toBeUndefined();
  });

  it('answers no waiting send for a payload that does not parse', async () => {
    await coordination.schedule(Queues.scheduledSends, {
      id: scheduledSendId('acc-1', 'env-1', 'bad'),
      dueAt: T,
      payload: 'not json',
    });
    expect(await scheduled.waiting(aScope(), 'bad')).toBeUndefined();
  });
});
