import type { MobilePushJob } from './mobile-push-job';
import { apnsNotification, fcmMessage } from './provider-payloads';

const job = (fields: Partial<MobilePushJob> = {}): MobilePushJob => ({
  trackingId: '0b8f7c1e-2d3a-4b5c-9d6e-7f8091a2b3c4',
  accountId: 'a',
  envId: 'e',
  receivedAt: 0,
  test: false,
  notificationId: 'n',
  userId: 'u',
  title: 'Title',
  message: 'Body',
  targets: [{ type: 'FCM', token: 't' }],
  ...fields,
});

describe('FCM message', () => {
  it('maps every android option and the custom data, tagged by tracking id', () => {
    expect(
      fcmMessage(
        job({
          android: { collapseKey: 'c', priority: 'high', ttl: 3600, restrictedPackageName: 'com.x' },
          customData: { screen: 'inbox' },
        }),
        'tok',
      ),
    ).toEqual({
      token: 'tok',
      notification: { title: 'Title', body: 'Body' },
      data: { screen: 'inbox' },
      android: {
        collapseKey: 'c',
        priority: 'high',
        ttl: 3_600_000,
        restrictedPackageName: 'com.x',
        notification: { tag: '0b8f7c1e-2d3a-4b5c-9d6e-7f8091a2b3c4' },
      },
      fcmOptions: { analyticsLabel: '0b8f7c1e-2d3a-4b5c-9d6e-7f8091a2b3c4' },
    });
  });

  it('leaves out what was not asked for', () => {
    const message = fcmMessage(job({ trackingId: 'not-a-uuid' }), 'tok');
    expect(message).not.toHaveProperty('data');
    expect(message).not.toHaveProperty('fcmOptions');
    expect(message.android).toEqual({ notification: { tag: 'not-a-uuid' } });
  });
});

describe('APNs notification', () => {
  it('maps every apn option to headers and aps fields, custom data beside aps', () => {
    expect(
      apnsNotification(
        job({
          apn: { expiry: 60, priority: 5, collapseId: 'c', threadId: 'th', badge: 2, sound: 'a.aiff' },
          customData: { k: 'v' },
        }),
        'com.example.app',
        1_000,
      ),
    ).toEqual({
      topic: 'com.example.app',
      id: '0b8f7c1e-2d3a-4b5c-9d6e-7f8091a2b3c4',
      collapseId: 'c',
      pushType: 'alert',
      priority: 5,
      expiry: 1_060,
      alert: { title: 'Title', body: 'Body' },
      badge: 2,
      sound: 'a.aiff',
      threadId: 'th',
      payload: { k: 'v' },
    });
  });

  it('sends a silent background push without an alert, at priority 5', () => {
    const note = apnsNotification(job({ apn: { contentAvailable: true } }), 'com.example.app', 0);
    expect(note).toMatchObject({ contentAvailable: true, pushType: 'background', priority: 5 });
    expect(note).not.toHaveProperty('alert');
    expect(note.collapseId).toBe('0b8f7c1e-2d3a-4b5c-9d6e-7f8091a2b3c4');
  });
});
