import { type ApnsClient, createApnsClient } from '@notify/providers';
import { Notification } from '@parse/node-apn';
import { randomUUID, sign } from 'node:crypto';
import { connect, type OutgoingHttpHeaders } from 'node:http2';
import { FakeClock } from '@notify/testing';
import { ApnsPeer, type ApnsSigningKey } from './apns-peer';

const LIVE = 'a1b2c3d4'.repeat(8);
const DEAD = `dead${'0f'.repeat(30)}`;
const OVERSIZED = JSON.stringify({ a: 'x'.repeat(4_096) });

describe('ApnsPeer through @parse/node-apn', () => {
  const peer = new ApnsPeer({ keep: 50 });
  let key: ApnsSigningKey;
  let client: ApnsClient;

  beforeAll(async () => {
    await peer.start();
    key = peer.registerKey('TEAM000001');
    client = createApnsClient(key, { production: false }, { url: peer.url, ca: peer.ca });
  });
  afterAll(async () => {
    await client.close();
    await peer.stop();
  });

  const aNotification = (id = randomUUID()) =>
    Object.assign(new Notification(), {
      id,
      topic: 'com.example.app',
      pushType: 'alert',
      priority: 10,
      collapseId: 'orders',
      expiry: 1_900_000_000,
      alert: { title: 'Order shipped', body: 'Arrives Tuesday' },
      badge: 3,
      sound: 'ping.aiff',
      threadId: 'orders',
      payload: { orderId: '42' },
    });

  it('makes keys as Apple hands them out', () => {
    expect(key).toEqual({
      keyId: expect.stringMatching(/^[A-Z0-9]{10}$/),
      teamId: 'TEAM000001',
      key: expect.stringMatching(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/),
    });
    expect(peer.registerKey().teamId).toMatch(/^[A-Z0-9]{10}$/);
  });

  it('keeps a notification with its exact apns-* headers, aps and custom data', async () => {
    const id = randomUUID();
    const answer = await client.send(aNotification(id), [LIVE]);
    expect(answer).toEqual({ sent: [{ device: LIVE, 'apns-id': id }], failed: [] });
    expect(peer.messages().at(-1)).toEqual({
      id: expect.any(String),
      receivedAt: expect.any(String),
      trackingId: id,
      token: LIVE,
      topic: 'com.example.app',
      headers: {
        'apns-id': id,
        'apns-topic': 'com.example.app',
        'apns-push-type': 'alert',
        'apns-priority': '10',
        'apns-collapse-id': 'orders',
        'apns-expiration': '1900000000',
      },
      aps: {
        alert: { title: 'Order shipped', body: 'Arrives Tuesday' },
        badge: 3,
        sound: 'ping.aiff',
        'thread-id': 'orders',
      },
      data: { orderId: '42' },
      title: 'Order shipped',
      body: 'Arrives Tuesday',
    });
  });

  it('sends to several devices over one session; a dead one fails as Unregistered (410)', async () => {
    const before = peer.deliveries();
    const answer = await client.send(aNotification(), [LIVE, DEAD, LIVE.replace('a1', 'b2')]);
    expect(answer.sent.map((s) => s.device)).toEqual([LIVE, LIVE.replace('a1', 'b2')]);
    expect(answer.failed).toEqual([
      {
        device: DEAD,
        'apns-id': expect.any(String),
        status: 410,
        response: { reason: 'Unregistered', timestamp: expect.any(Number) },
      },
    ]);
    expect(peer.deliveries()).toBe(before + 2);
  });

  it('answers with a new apns-id when the request has none, and keeps no tracking id', async () => {
    const answer = await client.send(
      Object.assign(new Notification(), { topic: 'com.example.app', alert: 'Plain text' }),
      [LIVE],
    );
    expect(answer.sent[0]?.['apns-id' as 'device']).toMatch(/^[0-9a-f-]{36}$/);
    expect(peer.messages().at(-1)).toMatchObject({ body: 'Plain text', aps: { alert: 'Plain text' } });
    expect(peer.messages().at(-1)?.trackingId).toBeUndefined();
  });

  it('refuses a key it does not know as InvalidProviderToken, and accepts it once given', async () => {
    const stranger = new ApnsPeer().registerKey();
    const strangerClient = createApnsClient(stranger, { production: true }, { url: peer.url, ca: peer.ca });
    try {
      expect((await strangerClient.send(aNotification(), [LIVE])).failed).toEqual([
        expect.objectContaining({ device: LIVE, status: 403, response: { reason: 'InvalidProviderToken' } }),
      ]);
      peer.acceptKey(stranger);
      expect((await strangerClient.send(aNotification(), [LIVE])).sent).toHaveLength(1);
    } finally {
      await strangerClient.close();
    }
  });

  it('stands in for Apple for any well-formed key with acceptAnyKey, still verifying the ones it was given', async () => {
    const open = new ApnsPeer({ acceptAnyKey: true });
    await open.start();
    const own = new ApnsPeer().registerKey();
    const given = open.registerKey();
    const forged = { ...given, key: own.key };
    const [ownClient, forgedClient] = [own, forged].map((k) =>
      createApnsClient(k, { production: true }, { url: open.url, ca: open.ca }),
    );
    try {
      expect((await ownClient.send(aNotification(), [LIVE])).sent).toHaveLength(1);
      expect((await forgedClient.send(aNotification(), [LIVE])).failed).toEqual([
        expect.objectContaining({ status: 403, response: { reason: 'InvalidProviderToken' } }),
      ]);
    } finally {
      await Promise.all([ownClient.close(), forgedClient.close()]);
      await open.stop();
    }
  });

  describe('over HTTP/2, as Apple answers', () => {
    const providerToken = (iat: number, signer: ApnsSigningKey = key) => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const input = `${part({ alg: 'ES256', kid: signer.keyId })}.${part({ iss: signer.teamId, iat })}`;
      const signature = sign('sha256', Buffer.from(input), { key: signer.key, dsaEncoding: 'ieee-p1363' });
      return `${input}.${signature.toString('base64url')}`;
    };
    const now = () => Math.floor(Date.now() / 1000);
    const post = (path: string, headers: OutgoingHttpHeaders, body = '{"aps":{"alert":"hi"}}') =>
      new Promise<{ status: number; body: unknown; apnsId: unknown }>((resolve, reject) => {
        const session = connect(peer.url, { ca: peer.ca });
        session.on('error', reject);
        const stream = session.request({ ':method': 'POST', ':path': path, ...headers });
        let text = '';
        let status = 0;
        let apnsId: unknown;
        stream.on('response', (response) => {
          status = Number(response[':status']);
          apnsId = response['apns-id'];
        });
        stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        stream.on('end', () => {
          session.close();
          resolve({ status, body: text === '' ? undefined : JSON.parse(text), apnsId });
        });
        stream.end(body);
      });
    const authorized = (extra: OutgoingHttpHeaders = {}) => ({
      authorization: `bearer ${providerToken(now())}`,
      'apns-topic': 'com.example.app',
      ...extra,
    });

    it('accepts a well-formed request and echoes its apns-id', async () => {
      const id = randomUUID();
      expect(await post(`/3/device/${LIVE}`, authorized({ 'apns-id': id }))).toEqual({
        status: 200,
        body: undefined,
        apnsId: id,
      });
    });

    it.each([
      ['no provider token', {}, 403, 'MissingProviderToken'],
      ['a malformed provider token', { authorization: 'bearer x.y.z' }, 403, 'InvalidProviderToken'],
    ])('refuses %s', async (_, headers: OutgoingHttpHeaders, status, reason) => {
      expect(await post(`/3/device/${LIVE}`, { 'apns-topic': 'com.example.app', ...headers })).toMatchObject({
        status,
        body: { reason },
      });
    });

    it('tells a stale provider token (Expired…) from a forged one (Invalid…)', async () => {
      const bearing = (token: string) => ({
        authorization: `bearer ${token}`,
        'apns-topic': 'com.example.app',
      });
      expect(await post(`/3/device/${LIVE}`, bearing(providerToken(now() - 3_700)))).toMatchObject({
        status: 403,
        body: { reason: 'ExpiredProviderToken' },
      });
      const impostor = { ...new ApnsPeer().registerKey(), keyId: key.keyId, teamId: key.teamId };
      expect(await post(`/3/device/${LIVE}`, bearing(providerToken(now(), impostor)))).toMatchObject({
        status: 403,
        body: { reason: 'InvalidProviderToken' },
      });
    });

    it.each([
      ['no topic', `/3/device/${LIVE}`, { 'apns-topic': '' }, '{}', 400, 'MissingTopic'],
      ['a token that is not hex', '/3/device/not-a-token', {}, '{}', 400, 'BadDeviceToken'],
      ['an apns-id that is not a UUID', `/3/device/${LIVE}`, { 'apns-id': 'x' }, '{}', 400, 'BadMessageId'],
      ['an empty payload', `/3/device/${LIVE}`, {}, '', 400, 'PayloadEmpty'],
      ['a payload over 4 KB', `/3/device/${LIVE}`, {}, OVERSIZED, 413, 'PayloadTooLarge'],
      ['another path', '/2/device/x', {}, '{}', 404, 'BadPath'],
    ])('answers %s', async (_, path, headers: OutgoingHttpHeaders, body, status, reason) => {
      expect(await post(path, authorized(headers), body)).toMatchObject({ status, body: { reason } });
    });

    it('answers a dead token 410 Unregistered with a timestamp in milliseconds', async () => {
      const answer = await post(`/3/device/${DEAD}`, authorized());
      expect(answer).toMatchObject({ status: 410, body: { reason: 'Unregistered' } });
      expect((answer.body as { timestamp: number }).timestamp).toBeGreaterThan(Date.now() - 60_000);
    });
  });
});

describe('ApnsPeer on its clock', () => {
  const clock = new FakeClock();
  const peer = new ApnsPeer({ clock });
  let key: ApnsSigningKey;

  beforeAll(async () => {
    await peer.start();
    key = peer.registerKey('TEAM000001');
  });
  afterAll(() => peer.stop());

  const statusOf = (iat: number) =>
    new Promise<{ status: number; reason: unknown }>((resolve, reject) => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const input = `${part({ alg: 'ES256', kid: key.keyId })}.${part({ iss: key.teamId, iat })}`;
      const signature = sign('sha256', Buffer.from(input), { key: key.key, dsaEncoding: 'ieee-p1363' });
      const session = connect(peer.url, { ca: peer.ca });
      session.on('error', reject);
      const stream = session.request({
        ':method': 'POST',
        ':path': `/3/device/${LIVE}`,
        authorization: `bearer ${input}.${signature.toString('base64url')}`,
        'apns-topic': 'com.example.app',
      });
      let status = 0;
      let text = '';
      stream.on('response', (response) => (status = Number(response[':status'])));
      stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      stream.on('end', () => {
        session.close();
        resolve({
          status,
          reason: text === '' ? undefined : (JSON.parse(text) as { reason: unknown }).reason,
        });
      });
      stream.end('{"aps":{"alert":"hi"}}');
    });

  it('takes a provider token for an hour after it was issued, by its own clock', async () => {
    const issued = Math.floor(clock.now() / 1000);
    expect(await statusOf(issued)).toEqual({ status: 200, reason: undefined });
    clock.advance(3_601_000);
    expect(await statusOf(issued)).toEqual({ status: 403, reason: 'ExpiredProviderToken' });
  });
});
