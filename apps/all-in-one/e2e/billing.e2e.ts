import { aMemberToken, requireBackend, testBackends } from '@notify/testing';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { type AllInOne, callAs, failedResponse, pingramIn, startAllInOne, statusAndCode } from './all-in-one';

const WEBHOOK_SECRET = 'whsec_e2e_billing_signing_secret';
const WEBHOOK = '/billing/stripe/webhook';
const URLS = { successUrl: 'https://app.example/billing/done', cancelUrl: 'https://app.example/billing' };
/** Only to sign test deliveries the way Stripe does; it calls nothing. */
const stripe = new Stripe('sk_test_123');

interface Billing {
  organizationId: string;
  accountType: string;
  organizationType: string;
  costCap: number;
  billingVersion: number;
  status?: string;
  subscriptionStatus?: string;
  pendingDowngradeAccountType?: string;
  billingCycleResetDate: string;
  autoUpgrade: boolean;
  stripeCustomerId?: string;
  stripeSubscriptionId?: string;
  updatedAt?: string;
  checkoutSession?: { id: string; url: string };
}

/** A subscription as the test has Stripe hold it. */
interface SubscriptionState {
  customer: string;
  organizationId: string;
  price?: string;
  status?: string;
  cancelAtPeriodEnd?: boolean;
}

/** The subscription `id` as Stripe gives it (on the API version the SDK pins). */
const subscriptionObject = (id: string, state: SubscriptionState, periodEnd: number) => ({
  id,
  object: 'subscription',
  customer: state.customer,
  status: state.status ?? 'active',
  cancel_at_period_end: state.cancelAtPeriodEnd ?? false,
  current_period_end: periodEnd,
  metadata: { organizationId: state.organizationId },
  items: { object: 'list', data: [{ id: `si_${id}`, price: { id: state.price ?? 'price_20' } }] },
});

/** A Stripe event as Stripe delivers it: the subscription's whole state at `created` (epoch seconds). */
function subscriptionEvent(
  id: string,
  created: number,
  subscription: SubscriptionState,
  type = 'customer.subscription.updated',
  subscriptionId = 'sub_e2e',
): string {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    created,
    data: { object: subscriptionObject(subscriptionId, subscription, created + 30 * 86_400) },
  });
}

const bodyOf = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * stripe-mock keeps no state, and billing reads every event's subscription again from Stripe: this
 * stand-in in front of it answers GET /v1/subscriptions/{id} with the subscriptions the test sets
 * (over stripe-mock's fixture) and passes every other call to stripe-mock, recording each POST's
 * path and idempotency key.
 */
async function statefulStripe(upstream: string) {
  const subscriptions = new Map<string, SubscriptionState>();
  const posts: { path: string; key: string | undefined }[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = request.url ?? '/';
      const body = await bodyOf(request);
      if (request.method === 'POST')
        posts.push({ path, key: request.headers['idempotency-key'] as string | undefined });
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          (entry): entry is [string, string] =>
            typeof entry[1] === 'string' && !['host', 'content-length', 'connection'].includes(entry[0]),
        ),
      );
      const answer = await fetch(`${upstream}${path}`, {
        method: request.method ?? 'GET',
        headers,
        ...(request.method === 'GET' || request.method === 'DELETE' ? {} : { body }),
      });
      const id = /^\/v1\/subscriptions\/([^/?]+)/.exec(path)?.[1];
      const state = request.method === 'GET' && id !== undefined ? subscriptions.get(id) : undefined;
      const text =
        state === undefined || id === undefined
          ? await answer.text()
          : JSON.stringify({
              ...(JSON.parse(await answer.text()) as object),
              ...subscriptionObject(id, state, nowSeconds() + 30 * 86_400),
            });
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(text);
    })().catch((error: unknown) => {
      response.writeHead(502);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    subscriptions,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1_000);

/**
 * Billing with Stripe through the pingram client (and plain HTTP for Stripe's webhook), against
 * the all-in-one service pointed at stripe-mock behind `statefulStripe`: the events arrive as
 * signed webhook deliveries made here, as Stripe would send them, and the subscriptions they name
 * are what the test sets. Seeded: `acct-bill` (Olive owner, Adam admin, Mia member), `acct-rival`
 * (Rita owner) and `acct-late` (Lena owner), each in an organization of its own.
 */
describe('billing with Stripe (all-in-one, stripe-mock)', () => {
  let app: AllInOne;
  let base: string;
  let stripeApi: Awaited<ReturnType<typeof statefulStripe>>;

  const olive = aMemberToken({ email: 'olive@bill.example' });
  const adam = aMemberToken({ email: 'adam@bill.example' });
  const mia = aMemberToken({ email: 'mia@bill.example' });
  const rita = aMemberToken({ email: 'rita@rival.example' });
  const lena = aMemberToken({ email: 'lena@late.example' });

  const call = (path: string, as: string | null, init: RequestInit = {}) => callAs(base, path, as, init);
  const billing = async (as: string, body: object = URLS): Promise<Billing> => {
    const response = await call('/billing', as, { method: 'POST', body: JSON.stringify(body) });
    if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`);
    return (await response.json()) as Billing;
  };
  const deliver = (payload: string, signature?: string) =>
    fetch(`${base}${WEBHOOK}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(signature === undefined ? {} : { 'stripe-signature': signature }),
      },
      body: payload,
    });
  const signed = (payload: string, timestamp = nowSeconds(), secret = WEBHOOK_SECRET) =>
    deliver(payload, stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }));
  const billingMoves = async (as: string) =>
    (
      (await (await call('/account/history', as)).json()) as {
        events: { type: string; details: Record<string, string> }[];
      }
    ).events
      .filter((event) => event.type.startsWith('billing.'))
      .map((event) => event.type);

  beforeAll(async () => {
    await requireBackend('stripe-mock');
    stripeApi = await statefulStripe(testBackends.stripeApiUrl);
    app = await startAllInOne('notify-billing-', {
      tenants: [
        {
          accountId: 'acct-bill',
          members: [
            { email: 'olive@bill.example', role: 'owner' },
            { email: 'adam@bill.example', role: 'admin' },
            { email: 'mia@bill.example', role: 'member' },
          ],
        },
        { accountId: 'acct-rival', members: [{ email: 'rita@rival.example', role: 'owner' }] },
        { accountId: 'acct-late', members: [{ email: 'lena@late.example', role: 'owner' }] },
      ],
      env: {
        STRIPE_SECRET_KEY: 'sk_test_123',
        STRIPE_API_URL: stripeApi.url,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        BILLING_PRICES: 'price_20=budget_20,price_100=budget_100',
      },
    });
    base = app.baseUrl;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await stripeApi?.close();
  }, 60_000);

  it('creates a checkout session for a budget price, making the organization’s Stripe customer once', async () => {
    const first = await pingramIn(base, olive).account.prepareCheckoutSession({
      budgetPriceId: 'price_20',
      ...URLS,
    });
    expect(first).toMatchObject({
      organizationId: 'org_acct-bill',
      organizationType: 'free',
      status: 'unverified',
      stripeCustomerId: expect.stringMatching(/^cus_/),
      sessionId: expect.stringMatching(/^cs_/),
      url: expect.stringMatching(/^https:\/\//),
    });
    const again = await billing(olive, { budgetPriceId: 'price_100', ...URLS });
    expect(again).toMatchObject({
      accountType: 'free',
      billingVersion: 1,
      billingCycleResetDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      autoUpgrade: false,
      stripeCustomerId: first.stripeCustomerId,
      checkoutSession: { id: expect.stringMatching(/^cs_/), url: expect.stringMatching(/^https:\/\//) },
    });
    expect(await billingMoves(olive)).toEqual(['billing.customer.created']);
  });

  it('refuses a price that is not a budget tier’s and return URLs that are not http(s), naming the field', async () => {
    const unknownPrice = await failedResponse(
      pingramIn(base, olive).account.prepareCheckoutSession({ budgetPriceId: 'price_9', ...URLS }),
    );
    expect(await statusAndCode(unknownPrice)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    const badUrl = await call('/billing', olive, {
      method: 'POST',
      body: JSON.stringify({ ...URLS, successUrl: 'file:///etc/passwd' }),
    });
    expect(badUrl.status).toBe(400);
    expect(((await badUrl.json()) as { error: { message: string } }).error.message).toMatch(/^successUrl: /);
  });

  it('needs an owner: an admin, a member and an API key get 403 with the error body', async () => {
    const rivalOrganization = (await (
      await call('/organizations', rita, { method: 'POST', body: '{}' })
    ).json()) as {
      apiKey: string;
    };
    for (const as of [adam, mia, rivalOrganization.apiKey]) {
      const refused = await failedResponse(pingramIn(base, as).account.prepareCheckoutSession(URLS));
      expect(await statusAndCode(refused)).toEqual({ status: 403, code: 'FORBIDDEN' });
    }
  });

  it('moves the organization with signed subscription events, once each, the newest winning', async () => {
    const { stripeCustomerId: customer = '', organizationId } = await billing(olive);
    const created = nowSeconds();
    const holds = (state: Partial<SubscriptionState>) =>
      stripeApi.subscriptions.set('sub_e2e', { customer, organizationId, ...state });
    holds({});
    const subscribed = subscriptionEvent(
      'evt_e2e_sub_1',
      created,
      { customer, organizationId },
      'customer.subscription.created',
    );
    expect((await signed(subscribed)).status).toBe(200);
    expect(await billing(olive)).toMatchObject({
      accountType: 'budget_20',
      organizationType: 'paid',
      costCap: 20,
      subscriptionStatus: 'active',
      status: 'verified',
      stripeSubscriptionId: 'sub_e2e',
    });
    expect(await pingramIn(base, olive).account.getOrganization()).toMatchObject({
      organizationType: 'paid',
      costCap: 20,
    });

    // Delivered again (Stripe retries): nothing moves twice.
    expect((await signed(subscribed)).status).toBe(200);
    const moves = [
      'billing.customer.created',
      'billing.accountType.budget_20',
      'billing.subscriptionStatus.active',
      'billing.status.verified',
    ];
    expect((await billingMoves(olive)).reverse()).toEqual(moves);

    // An upgrade, then an older event arriving late: the upgrade stands (billing reads the
    // subscription each event names as it stands at Stripe, not as the event carried it).
    holds({ price: 'price_100' });
    const upgraded = subscriptionEvent('evt_e2e_sub_2', created + 10, {
      customer,
      organizationId,
      price: 'price_100',
    });
    const late = subscriptionEvent('evt_e2e_sub_0', created - 10, {
      customer,
      organizationId,
      price: 'price_20',
      status: 'past_due',
    });
    expect((await signed(upgraded)).status).toBe(200);
    expect((await signed(late)).status).toBe(200);
    expect(await billing(olive)).toMatchObject({
      accountType: 'budget_100',
      costCap: 100,
      subscriptionStatus: 'active',
    });

    // Cancelled at the period's end, then ended.
    holds({ price: 'price_100', cancelAtPeriodEnd: true });
    const cancelling = subscriptionEvent('evt_e2e_sub_3', created + 20, {
      customer,
      organizationId,
      price: 'price_100',
      cancelAtPeriodEnd: true,
    });
    expect((await signed(cancelling)).status).toBe(200);
    expect(await pingramIn(base, olive).account.prepareCheckoutSession(URLS)).toMatchObject({
      pendingDowngradeAccountType: 'free',
      pendingDowngradeEffectiveDate: expect.any(String),
    });
    holds({ price: 'price_100', status: 'canceled' });
    const ended = subscriptionEvent(
      'evt_e2e_sub_4',
      created + 30,
      { customer, organizationId, price: 'price_100', status: 'canceled' },
      'customer.subscription.deleted',
    );
    expect((await signed(ended)).status).toBe(200);
    const free = await billing(olive);
    expect(free).toMatchObject({
      accountType: 'free',
      organizationType: 'free',
      costCap: 0,
      subscriptionStatus: 'canceled',
    });
    expect(free).not.toHaveProperty('pendingDowngradeAccountType');
  });

  it('refuses forged, stale and unsigned deliveries with 400 and the error body, changing nothing', async () => {
    const before = await billing(olive);
    const state = {
      customer: before.stripeCustomerId ?? '',
      organizationId: before.organizationId,
      price: 'price_100',
    };
    stripeApi.subscriptions.set('sub_e2e', state);
    const payload = subscriptionEvent('evt_e2e_forged', nowSeconds() + 100, state);
    for (const response of [
      await signed(payload, nowSeconds(), 'whsec_someone_else'),
      await signed(payload, nowSeconds() - 301),
      await deliver(payload),
      await deliver(payload, 't=1,v1=deadbeef'),
    ]) {
      expect(await statusAndCode(response)).toEqual({ status: 400, code: 'INVALID_SIGNATURE' });
    }
    expect(await billing(olive)).toEqual(before);
    // The same event, signed right, is taken: a refusal recorded nothing that would swallow it.
    expect((await signed(payload)).status).toBe(200);
    expect((await billing(olive)).accountType).toBe('budget_100');
  });

  it('refuses a body over the webhook’s own limit, and answers 200 to event types it ignores', async () => {
    const huge = JSON.stringify({ id: 'evt_e2e_huge', padding: 'x'.repeat(600 * 1024) });
    expect((await signed(huge)).status).toBe(413);
    const other = JSON.stringify({
      id: 'evt_e2e_other',
      object: 'event',
      type: 'charge.refunded',
      created: 1,
      data: { object: {} },
    });
    const response = await signed(other);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
  });

  it('takes a genuine event the strict JSON parser would refuse: its body is checked unparsed', async () => {
    const poisoned = JSON.stringify({
      id: 'evt_e2e_proto',
      object: 'event',
      type: 'charge.refunded',
      created: 1,
      data: { object: { metadata: {} } },
    }).replace('"metadata":{}', '"metadata":{"__proto__":"x"}');
    const response = await signed(poisoned);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
  });

  it('keeps the paid tier when the subscription’s update arrives after the later completed checkout, and moves a live plan instead of a second checkout', async () => {
    const { stripeCustomerId: customer = '', organizationId } = await billing(lena);
    stripeApi.subscriptions.set('sub_late', { customer, organizationId, price: 'price_20' });
    const created = nowSeconds();
    const checkout = JSON.stringify({
      id: 'evt_e2e_late_checkout',
      object: 'event',
      type: 'checkout.session.completed',
      created: created + 60,
      data: {
        object: {
          id: 'cs_e2e_late',
          object: 'checkout.session',
          customer,
          subscription: 'sub_late',
          client_reference_id: organizationId,
          metadata: { organizationId },
        },
      },
    });
    const updated = subscriptionEvent(
      'evt_e2e_late_updated',
      created,
      { customer, organizationId, price: 'price_20' },
      'customer.subscription.updated',
      'sub_late',
    );
    expect((await signed(checkout)).status).toBe(200);
    expect((await signed(updated)).status).toBe(200);
    const paid = await billing(lena);
    expect(paid).toMatchObject({
      accountType: 'budget_20',
      organizationType: 'paid',
      subscriptionStatus: 'active',
      status: 'verified',
      stripeSubscriptionId: 'sub_late',
    });

    // Subscribed already: a new budget price moves the subscription (prorated) and opens no checkout.
    const sessions = stripeApi.posts.filter((post) => post.path === '/v1/checkout/sessions').length;
    const moved = await billing(lena, { budgetPriceId: 'price_100', ...URLS });
    expect(moved).not.toHaveProperty('checkoutSession');
    expect(moved).toMatchObject({ accountType: 'budget_20', stripeSubscriptionId: 'sub_late' });
    expect(stripeApi.posts.filter((post) => post.path === '/v1/checkout/sessions')).toHaveLength(sessions);
    expect(stripeApi.posts.filter((post) => post.path === '/v1/subscriptions/sub_late')).toEqual([
      {
        path: '/v1/subscriptions/sub_late',
        key: `price:${organizationId}:sub_late:price_100:${paid.updatedAt}`,
      },
    ]);
  });

  it('never touches another organization: an event naming it with this customer, or its own key', async () => {
    const rival = await billing(rita);
    const mine = await billing(olive);
    const naming = subscriptionEvent('evt_e2e_cross', nowSeconds() + 200, {
      customer: mine.stripeCustomerId ?? '',
      organizationId: rival.organizationId,
      price: 'price_20',
    });
    expect((await signed(naming)).status).toBe(200);
    expect(await billing(rita)).toEqual(rival);
    expect(await billing(olive)).toEqual(mine);
    const rivalKey = (
      (await (
        await call('/accounts', rita, { method: 'POST', body: JSON.stringify({ name: 'Rival two' }) })
      ).json()) as {
        apiKey: string;
      }
    ).apiKey;
    const seen = await pingramIn(base, rivalKey).account.getOrganization();
    expect(seen.organizationId).not.toBe(mine.organizationId);
    const elsewhere = await call('/account/organization?accountId=acct-bill', rivalKey);
    expect(await statusAndCode(elsewhere)).toEqual({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('billing off (all-in-one without STRIPE_SECRET_KEY)', () => {
  let app: AllInOne;

  beforeAll(async () => {
    app = await startAllInOne('notify-billing-off-', {
      tenants: [{ accountId: 'acct-free', members: [{ email: 'fay@free.example', role: 'owner' }] }],
    });
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('answers POST /billing with 400 BILLING_DISABLED and the webhook with 404', async () => {
    const fay = aMemberToken({ email: 'fay@free.example' });
    const refused = await failedResponse(pingramIn(app.baseUrl, fay).account.prepareCheckoutSession(URLS));
    expect(await statusAndCode(refused)).toEqual({ status: 400, code: 'BILLING_DISABLED' });
    const webhook = await callAs(app.baseUrl, WEBHOOK, null, { method: 'POST', body: '{}' });
    expect(await statusAndCode(webhook)).toEqual({ status: 404, code: 'NOT_FOUND' });
  });
});
