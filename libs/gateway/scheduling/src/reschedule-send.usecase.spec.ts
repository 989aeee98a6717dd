import type { EventBus, OutgoingMessage } from '@notify/bus';
import { EmbeddedCoordinationStore, ScheduledSendsStore } from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import { type DeliveryEvent, ScheduleQuotaExceededError } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { type SenderNumbers, SmsFromNotOwnedError } from '@notify/providers';
import { aScope, aSendRequest, FakeClock, FakeSenderNumbers, tempDir, testLogger } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { RescheduleSendUseCase } from './reschedule-send.usecase';

const HOUR = 3_600_000;
/** The one number this environment may send SMS from. */
const OWNED = '+14155550100';
const tenant = { ...aScope(), test: false };

describe('RescheduleSendUseCase', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let coordination: EmbeddedCoordinationStore;
  let scheduled: ScheduledSendsStore;
  let events: DeliveryEvent[];
  let clock: FakeClock;
  let reschedule: RescheduleSendUseCase;
  const config = loadAppConfig({});

  beforeEach(async () => {
    dir = await tempDir('notify-reschedule-');
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger('coordination') });
    scheduled = new ScheduledSendsStore(coordination, {
      scheduledSendsPerEnvironment: 10,
      scheduledBytesPerEnvironment: 20_000,
    });
    events = [];
    clock = new FakeClock();
    const bus = {
      publish: async (messages: readonly OutgoingMessage[]) =>
        void events.push(...messages.map((m) => m.value as DeliveryEvent)),
    } as unknown as EventBus;
    reschedule = new RescheduleSendUseCase(
      scheduled,
      new DeliveryEventsPublisher(bus, clock),
      config,
      clock,
      new FakeSenderNumbers([OWNED]) as unknown as SenderNumbers,
    );
  });

  afterEach(async () => {
    await coordination.close();
    await dir.remove();
  });

  const waitingSend = (trackingId = 't1') =>
    scheduled.queue(
      aSendRequest({ trackingId, queued: true, send: { scheduledFor: clock.now() + HOUR } }),
      clock.now() + HOUR,
    );
  const body = (extra: Record<string, unknown> = {}) => ({
    type: 'welcome',
    to: { id: 'u-1', email: 'new@example.test' },
    email: { subject: 'Changed', html: '<p>changed</p>' },
    ...extra,
  });

  it('replaces the waiting send and keeps its due time when no schedule is given', async () => {
    await waitingSend();
    await reschedule.update(tenant, 't1', body());
    const waiting = await scheduled.waiting(aScope(), 't1');
    expect(waiting?.dueAt).toBe(clock.now() + HOUR);
    expect(waiting?.request).toMatchObject({
      trackingId: 't1',
      queued: true,
      send: { email: { subject: 'Changed' }, scheduledFor: clock.now() + HOUR },
    });
    expect(events).toEqual([
      expect.objectContaining({
        event: 'schedule_updated',
        trackingId: 't1',
        time: clock.now(),
        fields: {
          schedule_updated_at: new Date(clock.now()).toISOString(),
          schedule_updated_to: new Date(clock.now() + HOUR).toISOString(),
        },
      }),
    ]);
  });

  it('moves the send to a new schedule', async () => {
    await waitingSend();
    const later = new Date(clock.now() + 5 * HOUR).toISOString();
    await reschedule.update(tenant, 't1', body({ schedule: later }));
    expect((await scheduled.waiting(aScope(), 't1'))?.dueAt).toBe(Date.parse(later));
  });

  it('refuses a send that is not waiting in this environment (404), changing nothing', async () => {
    await waitingSend();
    await expect(reschedule.update(tenant, 'unknown', body())).rejects.toBeInstanceOf(NotFoundError);
    await expect(reschedule.update({ ...tenant, envId: 'other' }, 't1', body())).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(reschedule.delete(aScope({ envId: 'other' }), 't1')).rejects.toBeInstanceOf(NotFoundError);
    expect(await scheduled.waiting(aScope(), 't1')).toBeDefined();
    expect(events).toEqual([]);
  });

  it("refuses a replacement past the environment's quota (402), keeping the earlier send", async () => {
    await waitingSend();
    await expect(
      reschedule.update(tenant, 't1', body({ parameters: { blob: 'x'.repeat(30_000) } })),
    ).rejects.toBeInstanceOf(ScheduleQuotaExceededError);
    expect((await scheduled.waiting(aScope(), 't1'))?.request.send.email?.subject).toBeUndefined();
  });

  it('refuses a replacement naming an sms.from the environment may not send from (400), keeping the earlier send', async () => {
    await waitingSend();
    const sms = (from: string) =>
      body({ to: { id: 'u-1', number: '+15005550006' }, sms: { message: 'hi', from } });
    await expect(reschedule.update(tenant, 't1', sms('+14155550199'))).rejects.toBeInstanceOf(
      SmsFromNotOwnedError,
    );
    expect((await scheduled.waiting(aScope(), 't1'))?.request.send.sms).toBeUndefined();
    expect(events).toEqual([]);
    await reschedule.update(tenant, 't1', sms(OWNED));
    expect((await scheduled.waiting(aScope(), 't1'))?.request.send.sms?.from).toBe(OWNED);
  });

  it('cancels a waiting send once, logging when', async () => {
    await waitingSend();
    clock.advance(1_000);
    await reschedule.delete(aScope(), 't1');
    expect(await scheduled.waiting(aScope(), 't1')).toBeUndefined();
    expect(events).toEqual([
      expect.objectContaining({
        event: 'schedule_deleted',
        fields: { schedule_deleted_at: new Date(clock.now()).toISOString() },
      }),
    ]);
    await expect(reschedule.delete(aScope(), 't1')).rejects.toBeInstanceOf(NotFoundError);
  });
});
