import { newApiKey } from '@notify/gateway-auth';
import { aMemberToken, eventually, requireBackend, sleep, testBackends } from '@notify/testing';
import { ChannelsEnum } from 'pingram';
import Stripe from 'stripe';
import {
  type AllInOne,
  bootstrapKey,
  callAs,
  failedResponse,
  pingramIn,
  startAllInOne,
  statusAndCode,
} from './all-in-one';
import { nowSeconds, statefulStripe, subscriptionEvent } from './stripe-stand-in';

const BOB = 'bob@example.com';
const VIEWER = 'viewer@notify.localhost';
/** Billing on against stripe-mock, a free allowance of 6 messages, email at 0.001 USD. */
const BILLING_ON = {
  STRIPE_SECRET_KEY: 'sk_test_123',
  STRIPE_API_URL: testBackends.stripeApiUrl,
  BILLING_FREE_MESSAGES: '6',
  BILLING_RATES: '{"EMAIL":0.001}',
};
const SMS_US = 0.0083;

const emailBody = (subject: string) => ({
  type: 'metered',
  to: 'ann@example.com',
  subject,
  html: `<p>${subject}</p>`,
});
const smsBody = (message: string) => ({ type: 'metered', to: '+14155550101', message });
const sendBody = (subject: string) => ({
  type: 'metered',
  to: { id: 'ann', email: 'ann@example.com' },
  forceChannels: [ChannelsEnum.EMAIL],
  email: { subject, html: `<p>${subject}</p>` },
});

/**
 * Metering, usage and limits on the all-in-one service with billing on (stripe-mock): sends through
 * the local peers are counted once per message that reached a peer, priced by the rate table; an
 * organization at its free allowance gets 402 on every send route and nothing more is sent or
 * counted; a restart counts nothing twice; another organization is counted on its own.
 */
describe('metering, usage and limits (all-in-one, billing on)', () => {
  let app: AllInOne;
  const key = newApiKey();
  let bobKey: string;

  const owner = () => aMemberToken({ email: 'owner@notify.localhost', sub: 'sub-owner' });
  const call = (path: string, as: string | null, init: RequestInit = {}) =>
    callAs(app.baseUrl, path, as, init);
  const post = (path: string, as: string, body: unknown) =>
    call(path, as, { method: 'POST', body: JSON.stringify(body) });
  const pingram = (as: string) => pingramIn(app.baseUrl, as);
  const outbox = async (channel: 'email' | 'sms', as = key) =>
    ((await (await call(`/dev/outbox/${channel}`, as)).json()) as { messages: unknown[] }).messages.length;
  /** What a local peer received (the outboxes live in the process: since its last start). */
  const outboxText = async (channel: 'email' | 'sms') =>
    await (await call(`/dev/outbox/${channel}`, key)).text();
  const usage = (as = key) => pingram(as).organization.getUsage();
  /** Messages on every channel: what the free allowance counts (messageUsage leaves out SMS and calls). */
  const messages = async (as = key) =>
    Object.values((await usage(as)).channelUsages).reduce((sum, n) => sum + n, 0);

  beforeAll(async () => {
    app = await startAllInOne('notify-metering-', {
      tenants: [
        { accountId: 'default', create: false, members: [{ email: VIEWER, role: 'member' }] },
        { accountId: 'bobs', members: [{ email: BOB, role: 'owner' }] },
      ],
      provisionWithKey: key,
      now: new Date().toISOString(),
      env: BILLING_ON,
    });
    // Bob starts an organization of his own; the pingram client's answer leaves out its first key.
    const created = await post('/organizations', aMemberToken({ email: BOB, sub: 'sub-bob' }), {});
    bobKey = ((await created.json()) as { apiKey: string }).apiKey;
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('counts each message that reached a local peer, per channel, priced by the rate table', async () => {
    expect((await post('/email', key, emailBody('one'))).status).toBe(200);
    expect((await post('/email', key, emailBody('two'))).status).toBe(200);
    expect((await pingram(key).send(sendBody('three'))).trackingId).toEqual(expect.any(String));
    expect((await pingram(key).sms.send(smsBody('four'))).trackingId).toEqual(expect.any(String));
    await eventually(async () => expect(await outbox('email')).toBe(3), 20_000);
    await eventually(async () => expect(await outbox('sms')).toBe(1), 20_000);
    await eventually(async () => expect(await messages()).toBe(4), 20_000);
    const used = await usage();
    // messageUsage as pingram defines it: EMAIL, INAPP_WEB, WEB_PUSH, PUSH and SLACK.
    expect(used).toMatchObject({
      messageUsage: 3,
      channelUsages: { EMAIL: 3, SMS: 1 },
      costCall: 0,
      costNumber: 0,
      billingCycleStart: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      billingCycleEnd: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(used.costSms).toBeCloseTo(SMS_US, 10);
    expect(used.budgetUsage).toBeCloseTo(3 * 0.001 + SMS_US, 10);
  });

  it('counts nothing twice across a restart of the service on the same data', async () => {
    expect((await post('/email', key, emailBody('five'))).status).toBe(200);
    await app.restart();
    await eventually(async () => expect(await messages()).toBe(5), 20_000);
    // Whatever the restart redelivered has had time to be counted again, had it been.
    await sleep(2_000);
    expect(await usage()).toMatchObject({ messageUsage: 4, channelUsages: { EMAIL: 4, SMS: 1 } });
  });

  it('refuses every send route with 402 USAGE_LIMIT_EXCEEDED at the allowance, sending, logging and counting nothing', async () => {
    const six = () =>
      call('/email', key, {
        method: 'POST',
        body: JSON.stringify(emailBody('six')),
        headers: { 'idempotency-key': 'metering-six' },
      });
    const accepted = await six();
    expect(accepted.status).toBe(200);
    await eventually(async () => expect(await messages()).toBe(6), 20_000);
    await eventually(async () => expect(await outboxText('email')).toContain('six'), 20_000);
    // The environment's events, newest first: a refused send must add none.
    const events = async () => (await pingram(key).logs.getLogs(100)).messages;
    const { trackingId: sixId } = (await accepted.clone().json()) as { trackingId: string };
    await eventually(
      async () =>
        expect(await events()).toContainEqual(
          expect.objectContaining({ trackingId: sixId, eventType: 'email_delivered' }),
        ),
      20_000,
    );
    const eventsBefore = await events();
    await eventually(
      async () => expect((await post('/email', key, emailBody('refused'))).status).toBe(402),
      10_000,
    );
    const [environment] = (await (await call('/environments', key)).json()) as { clientId: string }[];
    for (const [path, body] of [
      ['/send', sendBody('refused')],
      ['/email', emailBody('refused')],
      ['/sms', smsBody('refused')],
      // A test email goes through the pipeline and is metered like any send.
      [
        '/sender/test/email',
        {
          notificationId: 'metered',
          subject: 'refused',
          html: '<p>refused</p>',
          to: 'owner@notify.localhost',
        },
      ],
      // The older server SDKs' send route.
      [`/${environment?.clientId ?? ''}/sender`, sendBody('refused')],
    ] as const) {
      const response = await post(path, key, body);
      const answer = (await response.clone().json()) as { error: { message: string; fix: string } };
      expect(await statusAndCode(response)).toEqual({ status: 402, code: 'USAGE_LIMIT_EXCEEDED' });
      expect(answer.error.message).toContain((await usage()).billingCycleEnd);
      expect(answer.error.fix).toEqual(expect.any(String));
    }
    // With an idempotency key, and through the pingram client, too.
    const keyed = await call('/email', key, {
      method: 'POST',
      body: JSON.stringify(emailBody('keyed')),
      headers: { 'idempotency-key': 'metering-1' },
    });
    expect(keyed.status).toBe(402);
    // A retry of a send accepted before the limit gets its answer again, not a 402.
    const retried = await six();
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual(await accepted.json());
    expect((await failedResponse(pingram(key).send(sendBody('refused')))).status).toBe(402);
    await sleep(2_000);
    expect(await outboxText('email')).not.toMatch(/refused|keyed/);
    expect(await outboxText('sms')).not.toContain('refused');
    expect(await messages()).toBe(6);
    // Nor is a refused send logged: the environment has the events it had.
    expect(await events()).toEqual(eventsBefore);
  });

  it('counts another organization on its own, which may still send', async () => {
    expect(await usage(bobKey)).toMatchObject({ messageUsage: 0, budgetUsage: 0, channelUsages: {} });
    expect((await post('/email', bobKey, emailBody('bob'))).status).toBe(200);
    await eventually(async () => expect((await usage(bobKey)).messageUsage).toBe(1), 20_000);
    expect(await messages()).toBe(6);
    expect((await post('/email', key, emailBody('still refused'))).status).toBe(402);
  });

  it('meters an SMS autoReply as an SMS: Twilio sends it, and charges for it', async () => {
    const number = '+14155550177';
    const sent = await post('/send', bobKey, {
      type: 'table',
      to: { id: 'diner', number },
      forceChannels: ['SMS'],
      sms: { message: 'Your table is ready', autoReply: { message: 'See you soon!' } },
    });
    expect(sent.status).toBe(200);
    await eventually(
      async () => expect((await usage(bobKey)).channelUsages).toEqual({ EMAIL: 1, SMS: 1 }),
      20_000,
    );
    const inbound = await post('/dev/inbound/sms', bobKey, { from: number, text: 'On my way' });
    expect(await inbound.json()).toEqual({ status: 200 });
    await eventually(
      async () => expect((await usage(bobKey)).channelUsages).toEqual({ EMAIL: 1, SMS: 2 }),
      20_000,
    );
    const used = await usage(bobKey);
    expect(used.messageUsage).toBe(1);
    expect(used.costSms).toBeCloseTo(2 * SMS_US, 10);
  });

  it('lists the cycle in the usage history, one item per month of the range', async () => {
    const { billingCycleStart } = await usage();
    const month = billingCycleStart.slice(0, 7);
    const history = await pingram(key).organization.getUsageHistory(`${month}-01`, billingCycleStart);
    expect(history.items).toHaveLength(1);
    expect(history.items[0]).toMatchObject({
      yearMonth: month,
      messageUsage: 5,
      channelUsages: { EMAIL: 5, SMS: 1 },
    });
    const year = Number(month.slice(0, 4));
    const longer = await pingram(key).organization.getUsageHistory(`${year - 1}-01-01`, `${year}-12-31`);
    expect(longer.items).toHaveLength(24);
    expect(longer.items.find((item) => item.yearMonth === month)?.messageUsage).toBe(5);
  });

  it('refuses a malformed or too long history range with a 400 naming the field', async () => {
    const history = (query: string) => call(`/organization/usage/history?${query}`, key);
    for (const [query, field] of [
      ['startDate=2026-02-30&endDate=2026-03-01', 'startDate'],
      ['startDate=2026-01-01', 'endDate'],
      ['startDate=2026-03-01&endDate=2026-02-01', 'endDate'],
      ['startDate=2024-01-01&endDate=2026-01-01', 'endDate'],
    ] as const) {
      const response = await history(query);
      const body = (await response.clone().json()) as { error: { message: string } };
      expect(await statusAndCode(response)).toEqual({ status: 400, code: expect.any(String) });
      expect(body.error.message).toContain(field);
    }
  });

  it('shows usage to admins and owners only: a member gets 403 with the error body', async () => {
    expect((await pingram(owner()).organization.getUsage()).messageUsage).toBe(5);
    const viewer = aMemberToken({ email: VIEWER, sub: 'sub-viewer' });
    expect(await statusAndCode(await call('/organization/usage', viewer))).toEqual({
      status: 403,
      code: expect.any(String),
    });
    expect(
      await statusAndCode(
        await call('/organization/usage/history?startDate=2026-01-01&endDate=2026-01-31', viewer),
      ),
    ).toEqual({ status: 403, code: expect.any(String) });
  });
});

describe('metering with billing off (all-in-one, no STRIPE_SECRET_KEY)', () => {
  let app: AllInOne;

  afterAll(() => app?.stop(), 60_000);

  it('never refuses a send for usage, and answers usage with zeros', async () => {
    app = await startAllInOne('notify-metering-off-', { env: { BILLING_FREE_MESSAGES: '1' } });
    const key = await bootstrapKey(app);
    for (const subject of ['a', 'b', 'c'])
      expect(
        (
          await callAs(app.baseUrl, '/email', key, {
            method: 'POST',
            body: JSON.stringify(emailBody(subject)),
          })
        ).status,
      ).toBe(200);
    await eventually(async () => {
      const { messages } = (await (await callAs(app.baseUrl, '/dev/outbox/email', key)).json()) as {
        messages: unknown[];
      };
      expect(messages).toHaveLength(3);
    }, 20_000);
    expect(
      (await callAs(app.baseUrl, '/email', key, { method: 'POST', body: JSON.stringify(emailBody('d')) }))
        .status,
    ).toBe(200);
    expect(await pingramIn(app.baseUrl, key).organization.getUsage()).toMatchObject({
      messageUsage: 0,
      budgetUsage: 0,
      channelUsages: {},
    });
  }, 120_000);
});

describe('auto-upgrade (all-in-one, stripe-mock)', () => {
  const WEBHOOK_SECRET = 'whsec_e2e_metering_signing_secret';
  /** Only to sign test deliveries the way Stripe does; it calls nothing. */
  const stripe = new Stripe('sk_test_123');
  const key = newApiKey();
  const owner = aMemberToken({ email: 'owner@notify.localhost', sub: 'sub-owner' });
  let stripeApi: Awaited<ReturnType<typeof statefulStripe>>;
  let app: AllInOne;

  const call = (path: string, as: string, init: RequestInit = {}) => callAs(app.baseUrl, path, as, init);
  const post = (path: string, as: string, body: unknown) =>
    call(path, as, { method: 'POST', body: JSON.stringify(body) });
  const organization = async () =>
    (await (await call('/account/organization', key)).json()) as {
      accountType?: string;
      costCap: number;
      autoUpgradedCycle?: string;
    };
  const usage = () => pingramIn(app.baseUrl, key).organization.getUsage();
  const emails = async (count: number) => {
    for (let i = 0; i < count; i++)
      expect((await post('/email', key, emailBody(`paid ${i}`))).status).toBe(200);
  };

  beforeAll(async () => {
    await requireBackend('stripe-mock');
    stripeApi = await statefulStripe(testBackends.stripeApiUrl);
    app = await startAllInOne('notify-auto-upgrade-', {
      provisionWithKey: key,
      now: new Date().toISOString(),
      env: {
        STRIPE_SECRET_KEY: 'sk_test_123',
        STRIPE_API_URL: stripeApi.url,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        BILLING_PRICES: 'price_20=budget_20,price_50=budget_50,price_100=budget_100',
        // One dollar a message: 18 emails are 90 % of budget_20.
        BILLING_RATES: '{"EMAIL":1}',
      },
    });
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await stripeApi?.close();
  }, 60_000);

  it('moves a paid organization one tier up at 90 % through Stripe, once in the cycle', async () => {
    const { stripeCustomerId: customer } = (await (
      await post('/billing', owner, {
        successUrl: 'https://app.example/billing/done',
        cancelUrl: 'https://app.example/billing',
      })
    ).json()) as { stripeCustomerId: string };
    const subscription = { customer, organizationId: 'org_default', price: 'price_20' };
    stripeApi.subscriptions.set('sub_metering', subscription);
    const payload = subscriptionEvent(
      'evt_metering_1',
      nowSeconds(),
      subscription,
      'customer.subscription.created',
      'sub_metering',
    );
    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const delivered = await fetch(`${app.baseUrl}/billing/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      body: payload,
    });
    expect(delivered.status).toBe(200);
    expect((await organization()).accountType).toBe('budget_20');
    expect((await post('/account', owner, { autoUpgrade: true })).status).toBe(200);

    await emails(17);
    await eventually(async () => expect((await usage()).messageUsage).toBe(17), 20_000);
    expect((await organization()).accountType).toBe('budget_20');
    await emails(1);
    const { billingCycleStart } = await usage();
    await eventually(
      async () =>
        expect(await organization()).toMatchObject({
          accountType: 'budget_50',
          costCap: 50,
          autoUpgradedCycle: billingCycleStart,
        }),
      20_000,
    );
    // Past 90 % of budget_50 in the same cycle: no second move, though budget_100 has a price.
    await emails(28);
    await eventually(async () => expect((await usage()).messageUsage).toBe(46), 30_000);
    await sleep(1_000);
    expect((await organization()).accountType).toBe('budget_50');
    expect(stripeApi.posts.filter((p) => p.path === '/v1/subscriptions/sub_metering')).toEqual([
      {
        path: '/v1/subscriptions/sub_metering',
        key: `auto-upgrade/org_default/${billingCycleStart}/budget_50`,
      },
    ]);
  }, 120_000);
});
