import type { EventBus, OutgoingMessage } from '@notify/bus';
import { EmbeddedCoordinationStore, ScheduledSendsStore } from '@notify/cache';
import {
  normalizeSend,
  Queues,
  scheduledSendId,
  type SendBody,
  type SendRequested,
  type User,
} from '@notify/domain';
import type { SenderNumbers } from '@notify/providers';
import type { UserRepository } from '@notify/store';
import type { Tenant } from '@notify/gateway-auth';
import { loadAppConfig } from '@notify/platform';
import { FakeSenderNumbers, tempDir, testLogger } from '@notify/testing';
import { systemClock } from '@notify/util';
import { AcceptSendUseCase, CONTACT_LOOKUP_MS, type SendOrigin } from './accept-send.usecase';

const tenant = { accountId: 'acc', envId: 'env', keyId: 'k', test: false };
/** The environment may send from this number only. */
const OWNED = '+14155550100';
const senderNumbers = new FakeSenderNumbers([OWNED]) as unknown as SenderNumbers;
const origin: SendOrigin = { source: 'send', request: '{}', receivedAt: Date.now() };
const HOUR = 3_600_000;

describe('AcceptSendUseCase', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let store: EmbeddedCoordinationStore;
  let published: OutgoingMessage[];
  let busDown: boolean;
  /** The queued copy's due time at the moment the bus took each send. */
  let dueAtPublish: (number | undefined)[];

  const accept = (env: Record<string, string> = {}) => {
    const bus = {
      publish: async (messages: readonly OutgoingMessage[]) => {
        if (busDown) throw new Error('no broker');
        for (const { value } of messages)
          dueAtPublish.push((await waiting((value as SendRequested).trackingId))?.dueAt);
        published.push(...messages);
      },
    };
    return new AcceptSendUseCase(
      bus as unknown as EventBus,
      { get: () => Promise.resolve(undefined) } as unknown as UserRepository,
      new ScheduledSendsStore(store, loadAppConfig(env).limits),
      testLogger('gateway'),
      systemClock,
      senderNumbers,
    );
  };
  const send = (body: Partial<SendBody> = {}, scheduleIn?: number) =>
    normalizeSend(
      {
        type: 'news',
        to: { id: 'u', email: 'u@example.com' },
        email: { subject: 's', html: 'h' },
        ...(scheduleIn !== undefined ? { schedule: new Date(Date.now() + scheduleIn).toISOString() } : {}),
        ...body,
      },
      Date.now(),
      { scheduleAheadMs: 365 * 24 * HOUR },
    );
  const waiting = (trackingId: string, scope = tenant) =>
    store.getScheduled(Queues.scheduledSends, scheduledSendId(scope.accountId, scope.envId, trackingId));

  beforeEach(async () => {
    dir = await tempDir('notify-accept-');
    store = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger('coordination') });
    published = [];
    busDown = false;
    dueAtPublish = [];
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('queues a scheduled send before answering, so it can be changed or deleted at once', async () => {
    const later = send({}, HOUR);
    const { trackingId } = await accept().execute(tenant, later, origin);
    const queued = await waiting(trackingId);
    expect(queued?.dueAt).toBe(later.scheduledFor);
    expect(JSON.parse(queued?.payload ?? '{}')).toMatchObject({ trackingId, queued: true });
    expect((published[0]?.value as SendRequested).queued).toBe(true);
    // An immediate send is not queued, and says so to the router.
    const now = await accept().execute(tenant, send(), origin);
    expect(await waiting(now.trackingId)).toBeUndefined();
    expect((published[1]?.value as SendRequested).queued).toBeUndefined();
  });

  it('queues a send due within the publish grace at its own due time once the bus has it', async () => {
    const soon = send({}, 2_000);
    const { trackingId } = await accept().execute(tenant, soon, origin);
    expect(dueAtPublish[0]).toBeGreaterThanOrEqual((soon.scheduledFor ?? 0) + 25_000);
    expect((await waiting(trackingId))?.dueAt).toBe(soon.scheduledFor);
  });

  it('leaves nothing queued when the bus does not take the send', async () => {
    busDown = true;
    await expect(accept().execute(tenant, send({}, HOUR), origin, 'refused')).rejects.toMatchObject({
      code: 'NOT_ACCEPTED',
    });
    expect(await waiting('refused')).toBeUndefined();
  });

  it('refuses a scheduled send past the count quota with 402, until one waiting send is gone', async () => {
    const capped = accept({ SCHEDULED_SENDS_PER_ENVIRONMENT: '2' });
    const first = await capped.execute(tenant, send({}, HOUR), origin);
    await capped.execute(tenant, send({}, HOUR), origin);
    const refused = capped.execute(tenant, send({}, HOUR), origin, 'third');
    await expect(refused).rejects.toMatchObject({
      kind: 'payment_required',
      code: 'SCHEDULE_QUOTA_EXCEEDED',
      message: expect.stringContaining('2 scheduled sends'),
    });
    expect(await waiting('third')).toBeUndefined();
    expect(published).toHaveLength(2);
    // Immediate sends and other environments are not counted.
    await capped.execute(tenant, send(), origin);
    await capped.execute({ ...tenant, envId: 'other' }, send({}, HOUR), origin);
    await store.cancel(Queues.scheduledSends, scheduledSendId('acc', 'env', first.trackingId));
    await capped.execute(tenant, send({}, HOUR), origin);
  });

  it('refuses an sms.from the environment may not send from with 400, publishing and queuing nothing', async () => {
    const from = (number: string, scheduleIn?: number) =>
      send({ to: { id: 'u', number: '+14155552671' }, sms: { message: 'hi', from: number } }, scheduleIn);
    await expect(
      accept().execute(tenant, from('+14155550199', HOUR), origin, 'unowned'),
    ).rejects.toMatchObject({
      kind: 'invalid',
      code: 'SMS_FROM_NOT_OWNED',
      message: expect.stringContaining('+14155550199'),
    });
    expect(published).toEqual([]);
    expect(await waiting('unowned')).toBeUndefined();
    await accept().execute(tenant, from(OWNED), origin);
    expect(published).toHaveLength(1);
  });

  it('refuses a scheduled send past the byte quota with 402', async () => {
    const capped = accept({ SCHEDULED_SENDS_ENVIRONMENT_MAX_MB: '1' });
    const big = { parameters: { blob: 'x'.repeat(600_000) } };
    await capped.execute(tenant, send(big, HOUR), origin);
    await expect(capped.execute(tenant, send(big, HOUR), origin)).rejects.toMatchObject({
      kind: 'payment_required',
      code: 'SCHEDULE_QUOTA_EXCEEDED',
      message: expect.stringContaining('1 MB'),
    });
    await capped.execute(tenant, send({ parameters: { blob: 'x'.repeat(100_000) } }, HOUR), origin);
  });
});

const contactTenant: Tenant = { accountId: 'a', envId: 'e', keyId: 'k', test: false };
const sendAt0 = (body: Omit<SendBody, 'type'>) =>
  normalizeSend({ type: 't', ...body }, 0, { scheduleAheadMs: 86_400_000 });

describe('AcceptSendUseCase: contact warnings', () => {
  const publish = jest.fn(() => Promise.resolve());
  const get = jest.fn<Promise<User | undefined>, unknown[]>();
  const useCase = new AcceptSendUseCase(
    { publish } as unknown as EventBus,
    { get } as unknown as UserRepository,
    {} as unknown as ScheduledSendsStore,
    testLogger(),
    systemClock,
    senderNumbers,
  );

  beforeEach(() => {
    publish.mockClear();
    get.mockReset();
  });

  it('reads nothing when the send carries the contacts its channels need', async () => {
    const accepted = await useCase.execute(
      contactTenant,
      sendAt0({ to: { id: 'u', number: '+14155552671' }, forceChannels: ['SMS'] }),
      { ...origin, receivedAt: 0 },
    );
    expect(accepted.messages).toEqual([]);
    expect(get).not.toHaveBeenCalled();
    expect(publish).toHaveBeenCalledTimes(1);
  });

  it('warns of a forced channel neither the send nor the stored user can be reached on', async () => {
    get.mockResolvedValue({ id: 'u', email: 'u@example.com' } as User);
    const accepted = await useCase.execute(
      contactTenant,
      sendAt0({ to: { id: 'u' }, forceChannels: ['SMS', 'EMAIL'] }),
      { ...origin, receivedAt: 0 },
    );
    expect(accepted.messages).toEqual(['SMS is skipped: the user has no phone number (to.number).']);
    expect(get).toHaveBeenCalledWith(contactTenant, 'u');
  });

  it('answers without the warning when the store is slow or failing, since acceptance needs only the bus', async () => {
    get.mockReturnValue(new Promise(() => undefined));
    const started = Date.now();
    const slow = await useCase.execute(contactTenant, sendAt0({ to: { id: 'u' }, forceChannels: ['SMS'] }), {
      ...origin,
      receivedAt: 0,
    });
    expect(slow.messages).toEqual([]);
    expect(Date.now() - started).toBeLessThan(CONTACT_LOOKUP_MS + 1_000);

    get.mockRejectedValue(new Error('store down'));
    const failing = await useCase.execute(
      contactTenant,
      sendAt0({ to: { id: 'u' }, forceChannels: ['SMS'] }),
      { ...origin, receivedAt: 0 },
    );
    expect(failing.messages).toEqual([]);
    expect(publish).toHaveBeenCalledTimes(2);
  });
});
