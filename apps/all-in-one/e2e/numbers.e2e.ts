import { aMemberToken, eventually, uniqueName } from '@notify/testing';
import { ChannelsEnum, type Pingram } from 'pingram';
import { type AllInOne, bootstrapKey, callAs, pingramIn, startAllInOne, statusAndCode } from './all-in-one';

const OTHER_ACCOUNT = 'acct-numbers-other';
const OTHER_ENV = 'env-numbers-other';
const OTHER_TEST_ENV = 'env-numbers-other-test';
/** MAX_PHONE_NUMBERS_PER_ACCOUNT for this service. */
const MAX_NUMBERS = 2;
const OTHER_OWNER = 'boss@other.example';
const OTHER_MEMBER = 'bob@other.example';

/**
 * Phone numbers through the pingram NumbersApi against the all-in-one service as `npm start` runs
 * it: numbers are bought from the local Twilio peer's pool, and an SMS from one reaches the dev
 * outbox. A second account (an owner and a plain member), written into the data directory before
 * the service starts, stands for another tenant.
 */
describe('phone numbers (all-in-one)', () => {
  let app: AllInOne;
  let base: string;
  let key: string;
  let client: Pingram;

  const call = (path: string, as: string, init: RequestInit = {}) => callAs(base, path, as, init);
  const errorOf = statusAndCode;
  const other = (path: string, init: RequestInit = {}, email = OTHER_OWNER, envId = OTHER_ENV) =>
    call(`${path}${path.includes('?') ? '&' : '?'}envId=${envId}`, aMemberToken({ email }), init);
  const smsOutbox = async () =>
    (
      (await (await call('/dev/outbox/sms', key)).json()) as {
        messages: { trackingId: string; from: string; to: string; body: string }[];
      }
    ).messages;

  beforeAll(async () => {
    app = await startAllInOne('notify-numbers-', {
      tenants: [
        {
          accountId: OTHER_ACCOUNT,
          name: 'Other',
          environments: [
            { envId: OTHER_ENV, title: 'Other' },
            { envId: OTHER_TEST_ENV, title: 'Other', test: true },
          ],
          members: [
            { email: OTHER_OWNER, role: 'owner' },
            { email: OTHER_MEMBER, role: 'member' },
          ],
        },
      ],
      env: { MAX_PHONE_NUMBERS_PER_ACCOUNT: String(MAX_NUMBERS) },
    });
    base = app.baseUrl;
    key = await bootstrapKey(app);
    client = pingramIn(base, key);
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('searches, orders, sends from, releases and re-orders a number, which keeps its createdAt', async () => {
    const found = await client.numbers.searchAvailable('US', 'sms,voice', '415', 3);
    expect(found.numbers).toHaveLength(3);
    for (const n of found.numbers) {
      expect(n.phoneNumber).toMatch(/^\+1415555\d{4}$/);
      expect(n).toMatchObject({ locality: 'San Francisco', administrativeArea: 'CA', monthlyPrice: 1.15 });
      expect(n.features).toEqual(expect.arrayContaining(['sms', 'voice']));
    }
    // `contains` is beyond the pingram client's parameters: the same route takes it.
    const contains = await call('/numbers/available?countryCode=US&areaCode=212&contains=0142', key);
    const { numbers: matching } = (await contains.json()) as { numbers: { phoneNumber: string }[] };
    expect(matching.map((n) => n.phoneNumber)).toEqual(['+12125550142']);
    const phoneNumber = '+12125550142';

    const order = await client.numbers.orderNumber({ phoneNumber });
    expect(order).toEqual({ orderId: expect.stringMatching(/^PN/), status: 'active', phoneNumber });
    const listed = await client.numbers.list();
    expect(listed.sharedNumber).toBe('+15005550006');
    const owned = listed.numbers.find((n) => n.phoneNumber === phoneNumber);
    expect(owned).toMatchObject({
      countryCode: 'US',
      numberType: 'local',
      billingStatus: 'active',
      monthlyPrice: 1.15,
      nextBillingDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    // Sold: no longer offered.
    expect(
      (await (await call('/numbers/available?countryCode=US&contains=2125550142', key)).json()) as unknown,
    ).toEqual({
      numbers: [],
    });

    const viaSms = await client.sms.send({
      type: uniqueName('numbers'),
      to: '+14155552671',
      message: 'From mine',
      from: phoneNumber,
    });
    const viaSend = await client.send({
      type: uniqueName('numbers'),
      to: { id: uniqueName('ann'), number: '+14155552672' },
      forceChannels: [ChannelsEnum.SMS],
      sms: { message: 'From mine too', from: phoneNumber },
    });
    const sent = await eventually(async () => {
      const messages = (await smsOutbox()).filter((m) =>
        [viaSms.trackingId, viaSend.trackingId].includes(m.trackingId),
      );
      if (messages.length < 2) throw new Error('not in the outbox yet');
      return messages;
    }, 20_000);
    expect(sent.map((m) => m.from)).toEqual([phoneNumber, phoneNumber]);

    for (const path of ['/sms', '/send']) {
      const body =
        path === '/sms'
          ? { type: 'numbers', to: '+14155552671', message: 'x', from: '+12125550143' }
          : {
              type: 'numbers',
              to: { id: 'u', number: '+14155552671' },
              sms: { message: 'x', from: '+12125550143' },
            };
      const refused = await call(path, key, { method: 'POST', body: JSON.stringify(body) });
      expect({ path, ...(await errorOf(refused)) }).toEqual({
        path,
        status: 400,
        code: 'SMS_FROM_NOT_OWNED',
      });
    }

    const released = await client.numbers.releaseNumber(phoneNumber);
    expect(released).toEqual({ phoneNumber, released: true, releasedAt: expect.any(String) });
    expect((await client.numbers.list()).numbers.map((n) => n.phoneNumber)).not.toContain(phoneNumber);
    const releasedList = await client.numbers.listReleased();
    expect(releasedList.numbers).toEqual([
      expect.objectContaining({
        phoneNumber,
        billingStatus: 'released',
        createdAt: owned?.createdAt,
        releasedAt: released.releasedAt,
      }),
    ]);
    const afterRelease = await call('/sms', key, {
      method: 'POST',
      body: JSON.stringify({ type: 'numbers', to: '+14155552671', message: 'x', from: phoneNumber }),
    });
    expect(await errorOf(afterRelease)).toEqual({ status: 400, code: 'SMS_FROM_NOT_OWNED' });

    const again = await client.numbers.orderNumber({ phoneNumber });
    expect(again.orderId).not.toBe(order.orderId);
    const reordered = (await client.numbers.list()).numbers.find((n) => n.phoneNumber === phoneNumber);
    expect(reordered?.createdAt).toBe(owned?.createdAt);
    expect(reordered?.releasedAt).toBeUndefined();
    expect((await client.numbers.listReleased()).numbers).toEqual([]);
  });

  it('answers 404 to another account releasing a number, 409 to it ordering one held, and lists none of it', async () => {
    const phoneNumber = '+15125550177';
    await client.numbers.orderNumber({ phoneNumber });
    const encoded = encodeURIComponent(phoneNumber);
    expect(await errorOf(await other(`/numbers/${encoded}`, { method: 'DELETE' }))).toEqual({
      status: 404,
      code: 'PHONE_NUMBER_NOT_FOUND',
    });
    expect(
      await errorOf(await other('/numbers/order', { method: 'POST', body: JSON.stringify({ phoneNumber }) })),
    ).toEqual({ status: 409, code: 'PHONE_NUMBER_UNAVAILABLE' });
    const theirs = (await (await other('/numbers/list')).json()) as { numbers: unknown[] };
    expect(theirs.numbers).toEqual([]);
    // The other account may not send from it either.
    const refused = await other('/sms', {
      method: 'POST',
      body: JSON.stringify({ type: 'numbers', to: '+14155552671', message: 'x', from: phoneNumber }),
    });
    expect(await errorOf(refused)).toEqual({ status: 400, code: 'SMS_FROM_NOT_OWNED' });
    // Still the first account's.
    expect((await client.numbers.list()).numbers.map((n) => n.phoneNumber)).toContain(phoneNumber);
  });

  it('lets a member search and list, and answers 403 with the error body when a member orders or releases', async () => {
    const search = await other('/numbers/available?countryCode=CA&limit=1', {}, OTHER_MEMBER);
    expect(search.status).toBe(200);
    expect((await other('/numbers/list', {}, OTHER_MEMBER)).status).toBe(200);
    const order = await other(
      '/numbers/order',
      { method: 'POST', body: JSON.stringify({ phoneNumber: '+14165550100' }) },
      OTHER_MEMBER,
    );
    expect(await errorOf(order)).toEqual({ status: 403, code: 'FORBIDDEN' });
    const release = await other(
      `/numbers/${encodeURIComponent('+14165550100')}`,
      { method: 'DELETE' },
      OTHER_MEMBER,
    );
    expect(await errorOf(release)).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('answers 400 with the error body to a malformed search or order, and to a country with no numbers', async () => {
    for (const path of [
      '/numbers/available',
      '/numbers/available?countryCode=USA',
      '/numbers/available?countryCode=US&contains=55*01',
      '/numbers/available?countryCode=US&features=fax',
      '/numbers/available?countryCode=US&limit=500',
    ])
      expect({ path, ...(await errorOf(await call(path, key))) }).toEqual({
        path,
        status: 400,
        code: expect.any(String),
      });
    expect(await errorOf(await call('/numbers/available?countryCode=ZZ', key))).toEqual({
      status: 400,
      code: 'COUNTRY_NOT_SUPPORTED',
    });
    const order = await call('/numbers/order', key, {
      method: 'POST',
      body: JSON.stringify({ phoneNumber: '4155550100' }),
    });
    expect((await errorOf(order)).status).toBe(400);
    expect(
      await errorOf(await call(`/numbers/${encodeURIComponent('+14155550100')}`, key, { method: 'DELETE' })),
    ).toEqual({
      status: 404,
      code: 'PHONE_NUMBER_NOT_FOUND',
    });
  });

  it(`refuses a test environment ordering or releasing (403), and an account's number beyond ${MAX_NUMBERS} (409), with the error body`, async () => {
    const order = (phoneNumber: string, envId = OTHER_ENV) =>
      other('/numbers/order', { method: 'POST', body: JSON.stringify({ phoneNumber }) }, OTHER_OWNER, envId);
    const held = ['+14155550110', '+14155550111'];
    for (const phoneNumber of held) expect((await order(phoneNumber)).status).toBe(200);

    const beyond = await order('+14155550112');
    expect(await errorOf(beyond)).toEqual({ status: 409, code: 'PHONE_NUMBER_LIMIT' });
    const listed = (await (await other('/numbers/list')).json()) as { numbers: { phoneNumber: string }[] };
    expect(listed.numbers.map((n) => n.phoneNumber)).toEqual(held);

    expect(await errorOf(await order('+14155550113', OTHER_TEST_ENV))).toEqual({
      status: 403,
      code: 'TEST_ENVIRONMENT',
    });
    const release = await other(
      `/numbers/${encodeURIComponent(held[0] ?? '')}`,
      { method: 'DELETE' },
      OTHER_OWNER,
      OTHER_TEST_ENV,
    );
    expect(await errorOf(release)).toEqual({ status: 403, code: 'TEST_ENVIRONMENT' });
    // The test environment lists the account's numbers, and names the sandbox's as the one it sends from.
    const fromTest = (await (await other('/numbers/list', {}, OTHER_OWNER, OTHER_TEST_ENV)).json()) as {
      numbers: { phoneNumber: string }[];
      sharedNumber: string;
    };
    expect(fromTest.numbers.map((n) => n.phoneNumber)).toEqual(held);
    expect(fromTest.sharedNumber).toBe('+15005550006');
  });
});
