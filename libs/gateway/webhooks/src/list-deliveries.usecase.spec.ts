import { NotFoundError } from '@notify/util';
import { ListDeliveriesUseCase } from './list-deliveries.usecase';
import { deliveriesHarness } from './testing/deliveries.harness';

describe('ListDeliveriesUseCase', () => {
  let h: Awaited<ReturnType<typeof deliveriesHarness>>;
  let list: ListDeliveriesUseCase;

  beforeEach(async () => {
    h = await deliveriesHarness();
    list = new ListDeliveriesUseCase(h.endpoints, h.attempts, h.clock);
  });

  afterEach(() => h.close());

  it('groups attempts by delivery, the latest delivery first, each with its attempts in order', async () => {
    const started = h.clock.now();
    await h.attempts.record(
      h.scope,
      'ep-1',
      h.anAttempt({ statusCode: 503, body: 'busy', status: 'retrying', nextAttemptAt: started + 5_000 }),
    );
    h.clock.advance(1_000);
    await h.attempts.record(h.scope, 'ep-1', h.anAttempt({ msgId: 'msg_2', trackingId: undefined }));
    h.clock.advance(4_000);
    await h.attempts.record(
      h.scope,
      'ep-1',
      h.anAttempt({ statusCode: undefined, error: 'no answer within 15000 ms', body: '', status: 'failed' }),
    );

    expect(await list.execute(h.scope, 'ep-1')).toEqual([
      {
        msgId: 'msg_1',
        eventType: 'SMS_FAILED',
        trackingId: 'trk-1',
        status: 'failed',
        attempts: [
          { at: new Date(started).toISOString(), statusCode: 503, body: 'busy', durationMs: 8 },
          {
            at: new Date(started + 5_000).toISOString(),
            error: 'no answer within 15000 ms',
            body: '',
            durationMs: 8,
          },
        ],
      },
      {
        msgId: 'msg_2',
        eventType: 'SMS_FAILED',
        status: 'delivered',
        attempts: [
          { at: new Date(started + 1_000).toISOString(), statusCode: 200, body: 'thanks', durationMs: 8 },
        ],
      },
    ]);
  });

  it('shows when a retrying delivery is next attempted', async () => {
    const next = h.clock.now() + 300_000;
    await h.attempts.record(
      h.scope,
      'ep-1',
      h.anAttempt({ status: 'retrying', statusCode: 500, nextAttemptAt: next }),
    );
    const [delivery] = await list.execute(h.scope, 'ep-1');
    expect(delivery?.status).toBe('retrying');
    expect(delivery?.nextAttemptAt).toBe(new Date(next).toISOString());
  });

  it("answers 404 for another environment's endpoint, even with attempts recorded under its id", async () => {
    const other = { ...h.scope, envId: 'env-b' };
    await h.attempts.record(other, 'ep-1', h.anAttempt());
    await expect(list.execute(other, 'ep-1')).rejects.toBeInstanceOf(NotFoundError);
    await expect(list.execute(h.scope, 'missing')).rejects.toMatchObject({ code: 'WEBHOOK_NOT_FOUND' });
  });
});
