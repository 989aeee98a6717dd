import { normalizeSend, type NormalizedSend, type SendRequested, Topics } from '@notify/domain';
import { aScope, aSendRequest, aUser } from '@notify/testing';
import { type RouterHarness, routerHarness } from './testing/router-harness';

const MB = 1_048_576;
const scope = { accountId: 'acc', envId: 'env' };

describe('RouteSendUseCase: digests', () => {
  let h: RouterHarness;

  beforeEach(async () => {
    h = await routerHarness();
    const now = new Date(h.clock.now()).toISOString();
    await h.types.ensure(scope, 'news', ['EMAIL', 'SMS', 'CALL'], now);
    await h.types.update(
      scope,
      'news',
      {
        options: {
          EMAIL: { defaultDeliveryOption: 'hourly' },
          SMS: { defaultDeliveryOption: 'hourly' },
          CALL: { defaultDeliveryOption: 'hourly' },
        },
      },
      now,
    );
  });

  afterEach(() => h.close());

  const route = (trackingId: string, blob: string) => {
    const receivedAt = h.clock.now();
    const request: SendRequested = {
      trackingId,
      ...scope,
      receivedAt,
      test: false,
      source: 'send',
      client: {},
      request: '{}',
      send: normalizeSend(
        {
          type: 'news',
          to: { id: 'u', email: 'u@example.com', number: '+14155552671' },
          parameters: { blob },
          email: { subject: 's', html: '<p>{{blob}}</p>' },
          sms: { message: 'm' },
          call: { message: 'c' },
        },
        receivedAt,
        { scheduleAheadMs: 86_400_000 },
      ),
    };
    return h.route.execute(request);
  };
  const failures = (trackingId: string) =>
    h
      .events()
      .filter((e) => e.trackingId === trackingId && e.event.endsWith('_failed'))
      .map((e) => e.fields);

  it("holds sends for each channel's digest, and logs one that would pass the window's cap with that channel's own code", async () => {
    await route('first', 'x'.repeat(0.6 * MB));
    expect(failures('first')).toEqual([]);
    // Held, not sent: no job reached a sender.
    expect(h.published.filter((m) => m.topic !== Topics.events)).toEqual([]);

    await route('second', 'x'.repeat(0.6 * MB));
    const internal = expect.stringMatching(/^DIGEST_WINDOW_FULL: .*1 MB/);
    expect(failures('second')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          email_failed_code: 'UNDETERMINED_BOUNCE',
          email_failed_internal: internal,
        }),
        expect.objectContaining({ sms_failed_code: 'Unknown', sms_failed_internal: internal }),
        expect.objectContaining({ call_failed_code: 'Unknown', call_failed_internal: internal }),
      ]),
    );
    expect(failures('second')).toHaveLength(3);
    // A small send still joins the window.
    await route('third', 'small');
    expect(failures('third')).toEqual([]);
  });
});

describe('RouteSendUseCase', () => {
  let h: RouterHarness;
  const email = { subject: 'Hi', html: '<p>hi</p>' };
  const quietNights = { start: '22:00', end: '07:00' };
  const routeEmail = (
    trackingId: string,
    extra: Partial<SendRequested> = {},
    send: Partial<NormalizedSend> = {},
  ) =>
    h.route.execute(
      aSendRequest({
        trackingId,
        receivedAt: h.clock.now(),
        ...extra,
        send: { recipient: aUser({ number: undefined }), email, ...send },
      }),
    );
  const configure = async (patch: Parameters<RouterHarness['types']['update']>[2]) => {
    await h.types.ensure(aScope(), 'welcome', ['EMAIL'], '2026-01-01T00:00:00.000Z');
    await h.types.update(aScope(), 'welcome', patch, '2026-01-01T00:00:00.000Z');
  };
  const routed = (trackingId: string) => h.fieldsOf(trackingId, 'routed')[0];

  beforeEach(async () => {
    h = await routerHarness();
    h.clock.set('2026-01-05T12:00:00.000Z');
  });

  afterEach(() => h.close());

  it('hands a send to its channel at once, logging when it routed it', async () => {
    await routeEmail('t1');
    expect(h.jobs()).toEqual([expect.objectContaining({ topic: Topics.delivery('EMAIL') })]);
    expect(routed('t1')).toMatchObject({
      processed_at: '2026-01-05T12:00:00.000Z',
      email_routing: 'SEND',
      email_preview: expect.any(String),
    });
  });

  it('logs a sensitive send received and routed, without its content', async () => {
    const link = 'https://notify.test/profile/accept_invite?token=secret';
    await routeEmail(
      't1',
      {},
      { email: { subject: 'Join', html: `<a href="${link}">Join</a>` }, sensitive: true },
    );
    expect(h.jobs()).toEqual([
      expect.objectContaining({ value: expect.objectContaining({ html: expect.stringContaining(link) }) }),
    ]);
    expect(h.fieldsOf('t1', 'request_received')[0]).toMatchObject({ user_id: 'u-1', type: 'welcome' });
    expect(routed('t1')).toMatchObject({ processed_at: '2026-01-05T12:00:00.000Z', email_routing: 'SEND' });
    expect(Object.keys(routed('t1') ?? {}).filter((f) => f.endsWith('_preview'))).toEqual([]);
    expect(JSON.stringify(h.events())).not.toContain('token=');
  });

  it('puts the notification id on the events it logs, for the insights by notification', async () => {
    await routeEmail('t1');
    const mine = h.events().filter((e) => e.event === 'request_received' || e.event === 'routed');
    expect(mine.map((e) => [e.event, e.notificationId])).toEqual([
      ['request_received', 'welcome'],
      ['routed', 'welcome'],
    ]);
  });

  it("holds a send that arrives in the user's quiet hours until they end, logging when it goes out", async () => {
    h.clock.set('2026-01-05T23:00:00.000Z');
    await routeEmail('t1', {}, { recipient: aUser({ number: undefined, quietHours: quietNights }) });
    expect(h.jobs()).toEqual([]);
    expect(routed('t1')).toMatchObject({ email_routing: 'SCHEDULE' });
    const waiting = await h.scheduled.waiting(aScope(), 't1');
    expect(waiting?.dueAt).toBe(Date.parse('2026-01-06T07:00:00.000Z'));
    expect(waiting?.request.send.scheduledFor).toBe(Date.parse('2026-01-06T07:00:00.000Z'));
    expect(h.fieldsOf('t1', 'request_received')[0]).toMatchObject({
      scheduled_for: '2026-01-06T07:00:00.000Z',
    });
  });

  it("sends an urgent type's send in quiet hours at once", async () => {
    await configure({ urgent: true, quietHours: quietNights });
    h.clock.set('2026-01-05T23:00:00.000Z');
    await routeEmail('t1');
    expect(h.jobs()).toHaveLength(1);
    expect(await h.scheduled.waiting(aScope(), 't1')).toBeUndefined();
  });

  it('sends a released send at once, even in quiet hours, without holding it again', async () => {
    await configure({ quietHours: quietNights });
    h.clock.set('2026-01-05T23:00:00.000Z');
    await routeEmail('t1', { released: true });
    expect(h.jobs()).toHaveLength(1);
    expect(await h.scheduled.waiting(aScope(), 't1')).toBeUndefined();
  });

  it('logs the receipt of a held send once: its release logs the routing, not the receipt again', async () => {
    await configure({ quietHours: quietNights });
    h.clock.set('2026-01-05T23:00:00.000Z');
    await routeEmail('t1');
    h.clock.set('2026-01-06T07:00:00.000Z');
    await routeEmail('t1', { released: true });
    const mine = h.events().filter((e) => e.trackingId === 't1');
    expect(mine.filter((e) => e.event === 'request_received')).toHaveLength(1);
    expect(mine.filter((e) => e.event === 'routed')).toHaveLength(2);
  });

  it('routes a duplicate DEDUPLICATED, while a redelivery of the first and other content still go out', async () => {
    await configure({ deduplication: { duration: 60 } });
    await routeEmail('t1');
    await routeEmail('t2');
    expect(routed('t2')).toMatchObject({ email_routing: 'DEDUPLICATED', ignored: 'DEDUPLICATION' });
    await routeEmail('t1');
    expect(h.jobs()).toHaveLength(2);
    await routeEmail('t3', {}, { parameters: { other: 'content' } });
    expect(h.jobs()).toHaveLength(3);
  });

  it('routes sends past the throttle THROTTLED, counting a redelivered send once', async () => {
    await configure({
      throttling: { max: 1, period: 1, unit: 'hours', forever: false, scope: ['userId'] },
    });
    await routeEmail('t1');
    await routeEmail('t1');
    expect(h.jobs()).toHaveLength(2);
    await routeEmail('t2');
    expect(routed('t2')).toMatchObject({ email_routing: 'THROTTLED', ignored: 'THROTTLING' });
    expect(h.jobs()).toHaveLength(2);
  });
});
