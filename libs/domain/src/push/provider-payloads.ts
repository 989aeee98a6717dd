import type { MobilePushJob } from './mobile-push-job';

/** Apple's apns-id and FCM's analytics label both take a tracking id when it is a UUID (ours are). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The FCM HTTP v1 message for one token, in firebase-admin's `Message` shape (the send's push options:
 * `options.fcm.android.*`, `options.push.customData` as data). The notification tag is the
 * tracking id, so a repeat of this push (a sender that died after FCM took it) replaces it on the
 * device instead of showing twice.
 */
export function fcmMessage(job: MobilePushJob, token: string) {
  const android = job.android ?? {};
  return {
    token,
    notification: { title: job.title, body: job.message },
    ...(job.customData !== undefined ? { data: { ...job.customData } } : {}),
    android: {
      ...(android.collapseKey !== undefined ? { collapseKey: android.collapseKey } : {}),
      ...(android.priority !== undefined ? { priority: android.priority } : {}),
      // firebase-admin takes milliseconds and writes FCM's "<seconds>s".
      ...(android.ttl !== undefined ? { ttl: Math.max(0, Math.round(android.ttl)) * 1000 } : {}),
      ...(android.restrictedPackageName !== undefined
        ? { restrictedPackageName: android.restrictedPackageName }
        : {}),
      notification: { tag: job.trackingId },
    },
    ...(UUID.test(job.trackingId) ? { fcmOptions: { analyticsLabel: job.trackingId } } : {}),
  };
}

/**
 * The APNs notification, as node-apn's `Notification` properties (they become the `apns-*` headers
 * and the `aps` dictionary; customData sits beside `aps`). `contentAvailable` makes a silent
 * background push: no alert, push type `background`, priority 5 as Apple requires. The collapse id
 * defaults to the tracking id for the same reason as FCM's tag.
 */
export function apnsNotification(job: MobilePushJob, topic: string, nowSeconds: number) {
  const apn = job.apn ?? {};
  const silent = apn.contentAvailable === true;
  return {
    topic,
    ...(UUID.test(job.trackingId) ? { id: job.trackingId.toLowerCase() } : {}),
    collapseId: apn.collapseId ?? job.trackingId,
    pushType: silent ? 'background' : 'alert',
    priority: apn.priority ?? (silent ? 5 : 10),
    ...(apn.expiry !== undefined ? { expiry: nowSeconds + Math.max(0, Math.round(apn.expiry)) } : {}),
    ...(silent ? { contentAvailable: true } : { alert: { title: job.title, body: job.message } }),
    ...(apn.badge !== undefined ? { badge: apn.badge } : {}),
    ...(apn.sound !== undefined ? { sound: apn.sound } : {}),
    ...(apn.threadId !== undefined ? { threadId: apn.threadId } : {}),
    payload: { ...job.customData },
  };
}
