import type { InAppItem, UserPreference, WebPushJob, WebPushSubscription } from '@notify/domain';
import { aDeliveryJob } from './senders';

/** An unread in-app notification of send `trk-1` (type `welcome`), kept until 2026-02-04. */
export const anInAppItem = (item: Partial<InAppItem> = {}): InAppItem => ({
  id: 'trk-1',
  notificationId: 'welcome',
  seen: false,
  title: 'You have a new follower',
  date: '2026-01-05T09:00:00.000Z',
  expDate: Date.parse('2026-02-04T09:00:00.000Z') / 1_000,
  ...item,
});

/** A user's choice for a notification type's channel: `welcome` emails turned off. */
export const aUserPreference = (preference: Partial<UserPreference> = {}): UserPreference => ({
  notificationId: 'welcome',
  channel: 'EMAIL',
  delivery: 'off',
  ...preference,
});

/** A browser's push subscription (RFC 8030) at a push service that never resolves. */
export const aWebPushSubscription = (
  subscription: Partial<WebPushSubscription> = {},
): WebPushSubscription => ({
  endpoint: 'https://push.example.invalid/push/sub-1',
  keys: { p256dh: 'BP256dh-public-key', auth: 'auth-secret' },
  ...subscription,
});

/** A web push to one browser subscription of user `u-1`. */
export const aWebPushJob = (job: Partial<WebPushJob> = {}): WebPushJob => ({
  ...aDeliveryJob(job),
  title: 'Order shipped',
  message: 'Arrives Tuesday',
  url: '/orders/42',
  subscriptions: [aWebPushSubscription()],
  ...job,
});
