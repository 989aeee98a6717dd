import type { PeerApnsMessage } from './apns-peer';
import type { PeerFcmMessage } from './fcm-peer';
import type { PeerWebPush } from './web-push-peer';

/**
 * A mobile push as `GET /dev/outbox/mobile_push` shows it (`provider`, `token`, `title`, `body`, `data`,
 * `options`), whichever provider took it.
 */
export const mobilePushOutboxView = (message: PeerFcmMessage | PeerApnsMessage) => ({
  id: message.id,
  receivedAt: message.receivedAt,
  trackingId: message.trackingId,
  provider: 'projectId' in message ? ('FCM' as const) : ('APN' as const),
  token: message.token,
  title: message.title,
  body: message.body,
  data: message.data,
  options: 'projectId' in message ? message.android : { headers: message.headers, aps: message.aps },
});

/** A web push as `GET /dev/outbox/web_push` shows it: what the browser decrypted (title, body, icon, url). */
export const webPushOutboxView = (message: PeerWebPush) => ({
  id: message.id,
  receivedAt: message.receivedAt,
  trackingId: message.trackingId,
  endpoint: message.endpoint,
  title: message.title,
  body: message.body,
  icon: message.icon,
  url: message.url,
});
