import type { PeerApnsMessage } from './apns-peer';
import type { PeerFcmMessage } from './fcm-peer';
import { mobilePushOutboxView, webPushOutboxView } from './outbox-views';
import type { PeerWebPush } from './web-push-peer';

describe('outbox views: a push as GET /dev/outbox/{mobile_push,web_push} shows it', () => {
  const at = '2030-01-01T00:00:00.000Z';

  it('shows an FCM message with its android options', () => {
    const message: PeerFcmMessage = {
      id: '0:1%ab',
      receivedAt: at,
      trackingId: 't-1',
      projectId: 'p',
      token: 'tok',
      title: 'Hi',
      body: 'There',
      data: { a: '1' },
      android: { priority: 'high' },
    };
    expect(mobilePushOutboxView(message)).toEqual({
      id: '0:1%ab',
      receivedAt: at,
      trackingId: 't-1',
      provider: 'FCM',
      token: 'tok',
      title: 'Hi',
      body: 'There',
      data: { a: '1' },
      options: { priority: 'high' },
    });
  });

  it('shows an APNs notification with its headers and aps as options', () => {
    const message: PeerApnsMessage = {
      id: 'u-1',
      receivedAt: at,
      token: 'ab',
      topic: 'com.example.app',
      headers: { 'apns-topic': 'com.example.app' },
      aps: { badge: 1 },
      data: { orderId: '42' },
      body: 'There',
    };
    expect(mobilePushOutboxView(message)).toEqual({
      id: 'u-1',
      receivedAt: at,
      trackingId: undefined,
      provider: 'APN',
      token: 'ab',
      title: undefined,
      body: 'There',
      data: { orderId: '42' },
      options: { headers: { 'apns-topic': 'com.example.app' }, aps: { badge: 1 } },
    });
  });

  it('shows a web push as the browser decrypted it', () => {
    const message: PeerWebPush = {
      id: 'w-1',
      receivedAt: at,
      trackingId: 't-2',
      endpoint: 'https://127.0.0.1:1/push/x',
      ttl: 60,
      payload: '{}',
      title: 'Hi',
      body: 'There',
      icon: '/i.png',
      url: '/o',
    };
    expect(webPushOutboxView(message)).toStrictEqual({
      id: 'w-1',
      receivedAt: at,
      trackingId: 't-2',
      endpoint: 'https://127.0.0.1:1/push/x',
      title: 'Hi',
      body: 'There',
      icon: '/i.png',
      url: '/o',
    });
  });
});
