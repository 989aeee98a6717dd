import { eventually, uniqueName } from '@notify/testing';
import { generateKeyPairSync } from 'node:crypto';
import {
  ChannelsEnum,
  GetUsersResponseUsersInnerPushTokensInnerTypeEnum as PushType,
  Pingram,
  SenderPostBodyOptionsFcmAndroidPriorityEnum as AndroidPriority,
} from 'pingram';
import type { ChannelsContext } from './channels.suite';
import { awaitLog } from './logs';

const device = (id: string) => ({ device_id: id, platform: 'android' });
const hex = (prefix: string) => `${prefix}${Buffer.from(uniqueName('t')).toString('hex')}`.slice(0, 64);

/**
 * Mobile push (FCM, APNs) and web push end to end, driven by the pingram client: the settings API,
 * what the FCM, APNs and web push peers received through firebase-admin, node-apn and web-push,
 * dead tokens pruned from the user, and the delivery log.
 */
export function pushSuite(context: () => ChannelsContext): void {
  describe('mobile push and web push', () => {
    const fcmFor = (trackingId: string) =>
      eventually(() => {
        const found = context()
          .topology.fcm.messages()
          .find((m) => m.trackingId === trackingId);
        if (found === undefined) throw new Error(`no FCM message for ${trackingId} yet`);
        return found;
      }, 30_000);
    const apnsFor = (trackingId: string) =>
      eventually(() => {
        const found = context()
          .topology.apns.messages()
          .find((m) => m.trackingId === trackingId);
        if (found === undefined) throw new Error(`no APNs message for ${trackingId} yet`);
        return found;
      }, 30_000);
    const webPushFor = (trackingId: string) =>
      eventually(() => {
        const found = context()
          .topology.webPush.messages()
          .find((m) => m.trackingId === trackingId);
        if (found === undefined) throw new Error(`no web push for ${trackingId} yet`);
        return found;
      }, 30_000);

    /** An environment of the same account with the push credentials the peers accept. */
    let configured: Pingram;
    /** One with none. */
    let bare: Pingram;
    let apnKeyPem = '';

    beforeAll(async () => {
      const { topology, client } = context();
      const environment = async (title: string) => {
        const created = (await (
          await fetch(`${topology.baseUrl}/environments`, {
            method: 'POST',
            headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title }),
          })
        ).json()) as { apiKey: string };
        return new Pingram({ apiKey: created.apiKey, baseUrl: topology.baseUrl });
      };
      configured = await environment(uniqueName('push'));
      bare = await environment(uniqueName('bare'));
      expect(client).toBeDefined();
      const account = topology.fcm.registerServiceAccount('notify-e2e');
      await configured.pushSettings.upsertPushFcmSettings({ fcmConfig: JSON.stringify(account) });
      const key = topology.apns.registerKey();
      apnKeyPem = key.key;
      await configured.pushSettings.upsertPushApnSettings({
        KeyId: key.keyId,
        TeamId: key.teamId,
        Key: key.key,
        Topic: 'com.example.notify',
      });
    });

    it('keeps push credentials sealed and masked, refuses broken keys, and shows them to no other environment', async () => {
      const { topology } = context();
      const fcm = await configured.pushSettings.getPushFcmSettings();
      const shown = JSON.parse(fcm.fcmConfig) as Record<string, string>;
      expect(shown).toMatchObject({ type: 'service_account', project_id: 'notify-e2e' });
      expect(shown.private_key).not.toMatch(/MII/);
      const apn = await configured.pushSettings.getPushApnSettings();
      expect(apn).toMatchObject({ Topic: 'com.example.notify' });
      expect(apn.Key).not.toMatch(/MIG/);
      expect(await topology.storedText()).not.toContain(apnKeyPem.split('\n')[1]);

      const put = (path: string, body: unknown) =>
        fetch(`${topology.baseUrl}/settings/push/${path}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const brokenFcm = await put('fcm', {
        fcmConfig: JSON.stringify({
          type: 'service_account',
          project_id: 'abcdef',
          client_email: 'a@b.c',
          private_key: 'nope',
        }),
      });
      expect(brokenFcm.status).toBe(400);
      expect(await brokenFcm.json()).toMatchObject({
        error: { code: 'INVALID_PROVIDER_SETTING', message: expect.stringContaining('private_key') },
      });
      const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
        type: 'pkcs8',
        format: 'pem',
      });
      const brokenApn = await put('apn', {
        KeyId: 'ABCDEFGHIJ',
        TeamId: 'ABCDEFGHIJ',
        Topic: 'com.example.app',
        Key: rsa,
      });
      expect(brokenApn.status).toBe(400);
      expect(await brokenApn.json()).toMatchObject({
        error: { code: 'INVALID_PROVIDER_SETTING', message: expect.stringContaining('.p8') },
      });

      // Another environment sees none of it, and deleting its (absent) settings touches nothing.
      await expect(bare.pushSettings.getPushFcmSettings()).rejects.toMatchObject({
        response: { status: 404 },
      });
      await bare.pushSettings.deletePushFcmSettings();
      expect((await configured.pushSettings.getPushFcmSettings()).fcmConfig).toBe(fcm.fcmConfig);
    });

    it('reaches every device with the options the send asked for', async () => {
      const userId = uniqueName('phone-user');
      const apnToken = hex('ab');
      const { trackingId } = await configured.send({
        type: uniqueName('push'),
        to: {
          id: userId,
          pushTokens: [
            { type: PushType.FCM, token: `fcm-${userId}`, device: device('pixel') },
            { type: PushType.APN, token: apnToken, device: device('iphone'), environment: 'production' },
          ],
        },
        forceChannels: [ChannelsEnum.PUSH],
        mobile_push: { title: 'Hi {{name}}', message: 'Order {{order}} shipped' },
        parameters: { name: 'Ann', order: '42' },
        options: {
          apn: {
            expiry: 3600,
            priority: 5,
            collapseId: 'orders',
            threadId: 'shop',
            badge: 3,
            sound: 'ping.aiff',
          },
          fcm: {
            android: {
              collapseKey: 'orders',
              priority: AndroidPriority.HIGH,
              ttl: 120,
              restrictedPackageName: 'com.example.notify',
            },
          },
          push: { customData: { screen: 'order', id: '42' } },
        },
      });
      const fcm = await fcmFor(trackingId);
      expect(fcm).toMatchObject({
        projectId: 'notify-e2e',
        token: `fcm-${userId}`,
        title: 'Hi Ann',
        body: 'Order 42 shipped',
        data: { screen: 'order', id: '42' },
        android: {
          collapse_key: 'orders',
          priority: 'high',
          ttl: '120s',
          restricted_package_name: 'com.example.notify',
        },
      });
      const apns = await apnsFor(trackingId);
      expect(apns.token).toBe(apnToken);
      expect(apns.headers).toMatchObject({
        'apns-topic': 'com.example.notify',
        'apns-priority': '5',
        'apns-collapse-id': 'orders',
        'apns-push-type': 'alert',
      });
      const expiration = Number(apns.headers['apns-expiration']);
      expect(Math.abs(expiration - (Math.floor(Date.now() / 1000) + 3600))).toBeLessThan(120);
      expect(apns.aps).toEqual({
        alert: { title: 'Hi Ann', body: 'Order 42 shipped' },
        badge: 3,
        sound: 'ping.aiff',
        'thread-id': 'shop',
      });
      expect(apns.data).toEqual({ screen: 'order', id: '42' });
      const log = await awaitLog(configured, trackingId, (l) => l.mobile_push_delivered_at !== undefined);
      expect(log).toMatchObject({ mobile_push_routing: 'SEND', mobile_push_sent_token: expect.any(String) });
    });

    it('delivers a web push the peer decrypts to exactly what was sent', async () => {
      const { topology } = context();
      const subscription = topology.webPush.subscribe();
      const userId = uniqueName('browser-user');
      await configured.user.identify(userId, { webPushTokens: [{ sub: subscription }] });
      const { trackingId } = await configured.send({
        type: uniqueName('webpush'),
        to: { id: userId },
        forceChannels: [ChannelsEnum.WEB_PUSH],
        web_push: {
          title: 'Hello {{name}}',
          message: 'News',
          icon: 'https://example.com/i.png',
          url: 'https://example.com/n/{{id}}',
        },
        parameters: { name: 'Ann', id: '7' },
      });
      const push = await webPushFor(trackingId);
      expect(JSON.parse(push.payload)).toEqual({
        title: 'Hello Ann',
        message: 'News',
        icon: 'https://example.com/i.png',
        url: 'https://example.com/n/7',
      });
      expect(push.ttl).toBeGreaterThan(0);
      const log = await awaitLog(configured, trackingId, (l) => l.web_push_delivered_at !== undefined);
      expect(log.web_push_delivered_token).toBe(subscription.endpoint);
    });

    it('removes dead tokens and expired subscriptions from the user, logging why', async () => {
      const { topology } = context();
      const userId = uniqueName('stale-user');
      const live = topology.webPush.subscribe();
      const expired = { ...topology.webPush.subscribe() };
      expired.endpoint = `${expired.endpoint}-expired`;
      await configured.user.identify(userId, {
        pushTokens: [
          { type: PushType.FCM, token: `dead-${userId}`, device: device('old') },
          { type: PushType.FCM, token: `fcm-${userId}`, device: device('new') },
          { type: PushType.APN, token: hex('dead'), device: device('old-iphone') },
        ],
        webPushTokens: [{ sub: expired }, { sub: live }],
      });
      const { trackingId } = await configured.send({
        type: uniqueName('stale'),
        to: { id: userId },
        forceChannels: [ChannelsEnum.PUSH, ChannelsEnum.WEB_PUSH],
        mobile_push: { title: 't', message: 'm' },
        web_push: { title: 't', message: 'm' },
      });
      await fcmFor(trackingId);
      await webPushFor(trackingId);
      const log = await awaitLog(
        configured,
        trackingId,
        (l) => l.web_push_failed_code !== undefined && l.mobile_push_failed_code !== undefined,
      );
      expect(log.web_push_failed_code).toBe('UNSUBSCIRBED_OR_EXPIRED');
      expect(log.web_push_failed_token).toBe(expired.endpoint);
      expect(['INVALID_FCM_TOKEN', 'INVALID_APN_TOKEN']).toContain(log.mobile_push_failed_code);
      await eventually(async () => {
        const user = await configured.user.getUser(userId);
        expect(user.pushTokens?.map((t) => t.token)).toEqual([`fcm-${userId}`]);
        expect(user.webPushTokens?.map((t) => t.sub.endpoint)).toEqual([live.endpoint]);
      }, 15_000);
    });

    it.each([
      ['FCM', 'NO_FCM_CONFIG'],
      ['APN', 'NO_APN_CONFIG'],
    ] as const)('logs %s tokens of an environment without credentials as %s', async (kind, code) => {
      const type = kind === 'FCM' ? PushType.FCM : PushType.APN;
      const userId = uniqueName('unconfigured');
      const token = kind === 'FCM' ? `fcm-${userId}` : hex('ab');
      const { trackingId } = await bare.send({
        type: uniqueName('nocreds'),
        to: { id: userId, pushTokens: [{ type, token, device: device('a') }] },
        forceChannels: [ChannelsEnum.PUSH],
        mobile_push: { title: 't', message: 'm' },
      });
      const log = await awaitLog(bare, trackingId, (l) => l.mobile_push_failed_code !== undefined);
      expect(log).toMatchObject({ mobile_push_failed_code: code, mobile_push_failed_token: token });
      const { topology } = context();
      expect([...topology.fcm.messages(), ...topology.apns.messages()].some((m) => m.token === token)).toBe(
        false,
      );
    });

    it("delivers a test environment's pushes to sandbox peers only, shown in its /dev/outbox", async () => {
      const { topology } = context();
      const created = (await (
        await fetch(`${topology.baseUrl}/environments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: uniqueName('push-sandbox'), test: true }),
        })
      ).json()) as { apiKey: string };
      const sandbox = new Pingram({ apiKey: created.apiKey, baseUrl: topology.baseUrl });
      const dev = async (key: string, path: string, method = 'GET') => {
        const response = await fetch(`${topology.baseUrl}/dev/outbox/${path}`, {
          method,
          headers: { authorization: `Bearer ${key}` },
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      // A subscription minted for the test environment: its browser keys stay with the service.
      const minted = await dev(created.apiKey, 'web_push/subscriptions', 'POST');
      expect(minted.status).toBe(200);
      const subscription = minted.body as { endpoint: string; keys: { p256dh: string; auth: string } };
      expect(subscription.endpoint).toMatch(/^https:\/\/web-push\.sandbox\.notify\.invalid\/push\//);

      const before = [topology.fcm.deliveries(), topology.apns.deliveries(), topology.webPush.deliveries()];
      const userId = uniqueName('sandboxed');
      const { trackingId } = await sandbox.send({
        type: uniqueName('sandboxed'),
        to: {
          id: userId,
          pushTokens: [
            { type: PushType.FCM, token: `fcm-${userId}`, device: device('a') },
            { type: PushType.APN, token: hex('ab'), device: device('b') },
          ],
          webPushTokens: [{ sub: subscription }],
        },
        forceChannels: [ChannelsEnum.PUSH, ChannelsEnum.WEB_PUSH],
        mobile_push: { title: 'Sandboxed {{n}}', message: 'm' },
        web_push: { title: 'Sandboxed {{n}}', message: 'w' },
        parameters: { n: 1 },
      });
      const log = await awaitLog(
        sandbox,
        trackingId,
        (l) => l.mobile_push_delivered_at !== undefined && l.web_push_delivered_at !== undefined,
      );
      expect(log).toMatchObject({ test: true });
      const mobile = await eventually(async () => {
        const { body } = await dev(created.apiKey, 'mobile_push');
        const messages = body.messages as Record<string, unknown>[];
        expect(messages).toHaveLength(2);
        return messages;
      }, 15_000);
      expect(mobile.map((m) => m.provider).sort()).toEqual(['APN', 'FCM']);
      expect(mobile.every((m) => m.trackingId === trackingId && m.title === 'Sandboxed 1')).toBe(true);
      const web = await eventually(async () => {
        const { body } = await dev(created.apiKey, 'web_push');
        const messages = body.messages as Record<string, unknown>[];
        expect(messages).toHaveLength(1);
        return messages;
      }, 15_000);
      expect(web[0]).toMatchObject({ trackingId, title: 'Sandboxed 1', body: 'w' });
      // Nothing reached the peers standing in for the real providers, and no other key sees it.
      expect([topology.fcm.deliveries(), topology.apns.deliveries(), topology.webPush.deliveries()]).toEqual(
        before,
      );
      const other = await dev(topology.apiKey, 'web_push');
      expect(JSON.stringify(other.body)).not.toContain(trackingId);
    });

    it('refuses more than 3 custom data pairs', async () => {
      const { topology } = context();
      const answer = await fetch(`${topology.baseUrl}/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${topology.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'custom-data',
          to: { id: 'u', pushTokens: [{ type: PushType.FCM, token: 'x', device: device('d') }] },
          mobile_push: { title: 't', message: 'm' },
          options: { push: { customData: { a: '1', b: '2', c: '3', d: '4' } } },
        }),
      });
      expect(answer.status).toBe(400);
    });
  });
}
