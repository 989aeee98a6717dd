import type { WebhookDelivery } from '@notify/cache';
import { ConflictError, NotFoundError } from '@notify/util';
import { RedeliverUseCase } from './redeliver.usecase';
import { deliveriesHarness } from './testing/deliveries.harness';

describe('RedeliverUseCase', () => {
  let h: Awaited<ReturnType<typeof deliveriesHarness>>;
  let redeliver: RedeliverUseCase;
  let delivery: WebhookDelivery;

  beforeEach(async () => {
    h = await deliveriesHarness();
    redeliver = new RedeliverUseCase(h.endpoints, h.attempts, h.queue, h.clock);
    delivery = {
      ...h.scope,
      endpointId: 'ep-1',
      msgId: 'msg_1',
      body: '{"eventType":"EMAIL_FAILED","trackingId":"trk-1"}',
      attempts: 0,
      trackingId: 'trk-1',
      resField: 'email_failed_webhook_res',
    };
  });

  afterEach(() => h.close());

  it('queues the kept delivery again, due now, with its msgId and payload, as a first attempt', async () => {
    await h.attempts.record(h.scope, 'ep-1', h.anAttempt({ status: 'failed', statusCode: 400, delivery }));
    h.clock.advance(60_000);
    await redeliver.execute(h.scope, 'ep-1', 'msg_1');
    expect(await h.queue.claimDue(h.clock.now() - 1, 10, 60_000)).toEqual([]);
    const [claimed] = await h.queue.claimDue(h.clock.now(), 10, 60_000);
    expect(claimed?.delivery).toEqual(delivery);
  });

  it('answers 404 for an unknown msgId, and for an endpoint of another environment', async () => {
    await h.attempts.record(h.scope, 'ep-1', h.anAttempt({ delivery }));
    const unknown = redeliver.execute(h.scope, 'ep-1', 'msg_unknown');
    await expect(unknown).rejects.toBeInstanceOf(NotFoundError);
    await expect(unknown).rejects.toMatchObject({ code: 'DELIVERY_NOT_FOUND' });
    await expect(redeliver.execute({ ...h.scope, envId: 'env-b' }, 'ep-1', 'msg_1')).rejects.toMatchObject({
      code: 'WEBHOOK_NOT_FOUND',
    });
    expect(await h.queue.claimDue(h.clock.now(), 10, 60_000)).toEqual([]);
  });

  it('refuses with 409 when the payload was too big to keep, queueing nothing', async () => {
    await h.attempts.record(h.scope, 'ep-1', h.anAttempt());
    await expect(redeliver.execute(h.scope, 'ep-1', 'msg_1')).rejects.toBeInstanceOf(ConflictError);
    expect(await h.queue.claimDue(h.clock.now(), 10, 60_000)).toEqual([]);
  });
});
