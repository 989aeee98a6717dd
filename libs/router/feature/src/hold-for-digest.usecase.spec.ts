import type { Channel, ChannelRouting } from '@notify/domain';
import { aNotificationType, aSendRequest, aUser } from '@notify/testing';
import { type RouterHarness, routerHarness } from './testing/router-harness';

const MB = 1_048_576;
const AT = Date.parse('2026-01-05T10:20:00.000Z');

describe('HoldForDigestUseCase', () => {
  let h: RouterHarness;
  const type = aNotificationType({
    channels: ['EMAIL', 'SMS', 'CALL'],
    options: {
      EMAIL: {
        defaultDeliveryOption: 'instant',
        instant: { enabled: true, batching: true, batchingWindow: 30, batchingKey: 'topic' },
      },
    },
  });
  const hold = (trackingId: string, routing: ChannelRouting, parameters: Record<string, unknown> = {}) =>
    h.holdForDigest.execute({
      request: aSendRequest({ trackingId, send: { parameters, recipient: aUser() } }),
      type,
      user: aUser(),
      routing,
      now: h.clock.now(),
    });
  const batched = (channel: Channel, delivery: ChannelRouting['delivery']): ChannelRouting => ({
    channel,
    routing: 'BATCH',
    delivery,
  });
  const released = async (at: number) => {
    const claimed = await h.windows.claimDue(at, 10, 30_000);
    return Promise.all(
      claimed.map(async (c) => ({
        due: c.due,
        items:
          c.due === undefined ? [] : (await h.windows.read(c.due, c.due.key)).items.map((i) => i.trackingId),
      })),
    );
  };

  beforeEach(async () => {
    h = await routerHarness({ windowBytes: MB, environmentBytes: 8 * MB });
    h.clock.set(AT);
  });

  afterEach(() => h.close());

  it('holds sends for their hourly digest, released together when the hour ends', async () => {
    expect(await hold('t1', batched('EMAIL', 'hourly'))).toEqual([]);
    h.clock.advance(60_000);
    expect(await hold('t2', batched('EMAIL', 'hourly'))).toEqual([]);
    expect(await released(Date.parse('2026-01-05T10:59:59.000Z'))).toEqual([]);
    expect(await released(Date.parse('2026-01-05T11:00:00.000Z'))).toEqual([
      { due: expect.objectContaining({ channel: 'EMAIL', mode: 'hourly' }), items: ['t1', 't2'] },
    ]);
  });

  it('opens a batching window with the first send, one per batching key value', async () => {
    await hold('t1', batched('EMAIL', undefined), { topic: 'a' });
    h.clock.advance(10_000);
    await hold('t2', batched('EMAIL', undefined), { topic: 'a' });
    await hold('t3', batched('EMAIL', undefined), { topic: 'b' });
    // The window of `a` opened at AT and lasts 30 s; `b`'s opened 10 s later.
    expect(await released(AT + 30_000)).toEqual([
      { due: expect.objectContaining({ mode: 'instant' }), items: ['t1', 't2'] },
    ]);
    expect(await released(AT + 40_000)).toEqual([{ due: expect.anything(), items: ['t3'] }]);
  });

  it.each([
    ['EMAIL', 'email', 'UNDETERMINED_BOUNCE'],
    ['SMS', 'sms', 'Unknown'],
    ['CALL', 'call', 'Unknown'],
  ] as const)(
    "fails a %s send that the full window has no room for with the channel's own catch-all code",
    async (channel, prefix, code) => {
      expect(await hold('t1', batched(channel, 'daily'), { blob: 'x'.repeat(0.6 * MB) })).toEqual([]);
      const failed = await hold('t2', batched(channel, 'daily'), { blob: 'x'.repeat(0.6 * MB) });
      expect(failed).toEqual([
        expect.objectContaining({
          event: `${prefix}_failed`,
          trackingId: 't2',
          fields: {
            [`${prefix}_failed_at`]: '2026-01-05T10:20:00.000Z',
            [`${prefix}_failed_code`]: code,
            [`${prefix}_failed_internal`]: expect.stringMatching(/^DIGEST_WINDOW_FULL: .*1 MB/),
          },
        }),
      ]);
    },
  );

  it("fails a send once the environment's windows are full, naming that cap", async () => {
    const small = await routerHarness({ windowBytes: MB, environmentBytes: MB });
    try {
      const request = (trackingId: string, userId: string) =>
        aSendRequest({ trackingId, send: { userId, parameters: { blob: 'x'.repeat(0.6 * MB) } } });
      const execute = (trackingId: string, userId: string) =>
        small.holdForDigest.execute({
          request: request(trackingId, userId),
          type,
          user: aUser(),
          routing: batched('EMAIL', 'daily'),
          now: AT,
        });
      expect(await execute('t1', 'u-1')).toEqual([]);
      expect(await execute('t2', 'u-2')).toEqual([
        expect.objectContaining({
          fields: expect.objectContaining({
            email_failed_internal: expect.stringMatching(/^DIGEST_ENVIRONMENT_FULL/),
          }),
        }),
      ]);
    } finally {
      await small.close();
    }
  });
});
