import { webPushAgent } from '@notify/providers';
import { request } from 'node:https';
import webpush, { type PushSubscription, type RequestOptions, WebPushError } from 'web-push';
import { WebPushPeer } from './web-push-peer';

describe('WebPushPeer through web-push', () => {
  const peer = new WebPushPeer({ keep: 50 });
  const vapid = webpush.generateVAPIDKeys();
  const vapidDetails = { subject: 'mailto:ops@example.com', ...vapid };
  let options: RequestOptions;

  beforeAll(async () => {
    await peer.start();
    options = { vapidDetails, agent: webPushAgent({ allowPrivateNetworks: true, ca: peer.ca }) };
  });
  afterAll(() => peer.stop());

  const content = { title: 'Order shipped', message: 'Arrives Tuesday', icon: '/i.png', url: '/orders/42' };

  it('subscribes like a browser: a P-256 public key and a 16-byte auth secret', () => {
    const subscription = peer.subscribe();
    expect(subscription.endpoint).toMatch(new RegExp(`^${peer.url}/push/[A-Za-z0-9_-]+$`));
    expect(Buffer.from(subscription.keys.p256dh, 'base64url')).toHaveLength(65);
    expect(Buffer.from(subscription.keys.auth, 'base64url')).toHaveLength(16);
  });

  it('decrypts what was pushed and keeps it with the RFC 8030 headers and the tracking id', async () => {
    const subscription = peer.subscribe();
    const payload = JSON.stringify(content);
    const answer = await webpush.sendNotification(subscription, payload, {
      ...options,
      TTL: 3_600,
      urgency: 'high',
      topic: 'orders',
      headers: { 'x-notify-tracking-id': 'track-1' },
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.headers.location).toMatch(new RegExp(`^${peer.url}/message/`));
    expect(peer.messages().at(-1)).toEqual({
      id: expect.any(String),
      receivedAt: expect.any(String),
      trackingId: 'track-1',
      endpoint: subscription.endpoint,
      ttl: 3_600,
      urgency: 'high',
      topic: 'orders',
      payload,
      title: 'Order shipped',
      body: 'Arrives Tuesday',
      icon: '/i.png',
      url: '/orders/42',
    });
  });

  it('keeps a push without payload, and one whose payload is not JSON', async () => {
    const subscription = peer.subscribe();
    await webpush.sendNotification(subscription, null, options);
    expect(peer.messages().at(-1)).toMatchObject({ payload: '', ttl: 2_419_200 });
    await webpush.sendNotification(subscription, 'just text', options);
    expect(peer.messages().at(-1)).toMatchObject({ payload: 'just text' });
    expect(peer.messages().at(-1)?.title).toBeUndefined();
  });

  it('answers an endpoint containing expired with 410 Gone, as a WebPushError', async () => {
    const subscription = { ...peer.subscribe(), endpoint: `${peer.url}/push/expired-1` };
    const before = peer.deliveries();
    const refused = await webpush
      .sendNotification(subscription, 'x', options)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WebPushError);
    expect(refused).toMatchObject({ statusCode: 410, endpoint: subscription.endpoint });
    expect(peer.deliveries()).toBe(before);
  });

  it('answers a subscription it has no keys for with 404', async () => {
    const minted = peer.mintKeys();
    await expect(webpush.sendNotification(minted, 'x', options)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('decrypts for keys minted elsewhere through keysFor', async () => {
    const minted = new Map<string, { privateKey: string; publicKey: string; auth: string }>();
    const other = new WebPushPeer({ keysFor: (id) => Promise.resolve(minted.get(id)) });
    await other.start();
    try {
      const subscription = other.mintKeys();
      const { id, privateKey, keys } = subscription;
      minted.set(id, { privateKey, publicKey: keys.p256dh, auth: keys.auth });
      await webpush.sendNotification(subscription, JSON.stringify(content), options);
      expect(other.messages().at(-1)).toMatchObject({
        endpoint: subscription.endpoint,
        body: 'Arrives Tuesday',
      });
    } finally {
      await other.stop();
    }
  });

  it('refuses the private peer when private networks are not allowed (the SSRF guard)', async () => {
    const guarded = { vapidDetails, agent: webPushAgent({ allowPrivateNetworks: false, ca: peer.ca }) };
    await expect(webpush.sendNotification(peer.subscribe(), 'x', guarded)).rejects.toMatchObject({
      name: 'EgressError',
      message: '127.0.0.1 is a private address',
    });
  });

  describe('over HTTP, as push services answer', () => {
    const send = (subscription: PushSubscription, change: (headers: Record<string, string>) => void) => {
      const details = webpush.generateRequestDetails(subscription, 'x', { vapidDetails });
      const headers = Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)]));
      change(headers);
      return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const outgoing = request(details.endpoint, { method: 'POST', headers, ca: peer.ca }, (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }),
          );
        });
        outgoing.on('error', reject);
        outgoing.end(details.body);
      });
    };
    const vapidFor = (audience: string, keys = vapid) =>
      webpush.getVapidHeaders(audience, vapidDetails.subject, keys.publicKey, keys.privateKey, 'aes128gcm')
        .Authorization;

    it.each([
      ['no Authorization', 401, (h: Record<string, string>) => delete h.Authorization],
      [
        'a JWT for another audience',
        403,
        (h: Record<string, string>) => (h.Authorization = vapidFor('https://push.example.com')),
      ],
      [
        'a JWT signed by another key than k',
        403,
        (h: Record<string, string>) => {
          const k = /k=([^,\s]+)/.exec(h.Authorization ?? '')?.[1] ?? '';
          h.Authorization = vapidFor(peer.url, webpush.generateVAPIDKeys()).replace(/k=[^,\s]+/, `k=${k}`);
        },
      ],
      ['no TTL', 400, (h: Record<string, string>) => delete h.TTL],
      ['another content coding', 415, (h: Record<string, string>) => (h['Content-Encoding'] = 'aesgcm')],
    ])('refuses %s with %i', async (_, status, change) => {
      const before = peer.deliveries();
      const answer = await send(peer.subscribe(), change);
      expect(answer).toEqual({
        status,
        body: { code: status, error: expect.any(String), message: expect.any(String) },
      });
      expect(peer.deliveries()).toBe(before);
    });
  });
});
