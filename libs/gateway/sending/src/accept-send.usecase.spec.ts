import type { EventBus, OutgoingMessage } from '@notify/bus';
import { EmbeddedCoordinationStore } from '@notify/cache';
import { normalizeSend, Queues, scheduledSendId, type SendBody, type SendRequested } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { tempDir, testLogger } from '@notify/testing';
import { AcceptSendUseCase, type SendOrigin } from './accept-send.usecase';

const tenant = { accountId: 'acc', envId: 'env', keyId: 'k', test: false };
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
      store,
      loadAppConfig(env),
      testLogger('gateway'),
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
