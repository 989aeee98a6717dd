import { unsubscribes } from './user-event';

describe('unsubscribes', () => {
  const scope = { accountId: 'a', envId: 'e' };
  const at = '2026-01-01T00:00:00.000Z';

  it('emits <CHANNEL>_UNSUBSCRIBE for each channel newly turned off, once', () => {
    const events = unsubscribes(
      scope,
      'u1',
      [{ notificationId: 'news', channel: 'EMAIL', delivery: 'off' }],
      [
        { notificationId: 'news', channel: 'EMAIL', delivery: 'off' },
        { notificationId: 'news', channel: 'INAPP_WEB', delivery: 'off' },
        { notificationId: 'news', channel: 'INAPP_WEB', delivery: 'off' },
        { notificationId: 'news', channel: 'SMS', delivery: 'daily' },
        { notificationId: 'news', subNotificationId: 'x', channel: 'EMAIL', delivery: 'off' },
      ],
      at,
    );
    expect(events).toEqual([
      {
        ...scope,
        eventType: 'INAPP_WEB_UNSUBSCRIBE',
        channel: 'INAPP_WEB',
        userId: 'u1',
        notificationId: 'news',
        timestamp: at,
      },
      {
        ...scope,
        eventType: 'EMAIL_UNSUBSCRIBE',
        channel: 'EMAIL',
        userId: 'u1',
        notificationId: 'news',
        subNotificationId: 'x',
        timestamp: at,
      },
    ]);
  });
});
