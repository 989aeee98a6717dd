export { type ApnsPeerOptions, ApnsPeer, type ApnsSigningKey, type PeerApnsMessage } from './apns-peer';
export {
  FcmPeer,
  type FcmPeerOptions,
  type GoogleServiceAccount,
  type PeerFcmMessage,
  type ServiceAccountKey,
} from './fcm-peer';
export { mobilePushOutboxView, webPushOutboxView } from './outbox-views';
export { makePeerTls, type PeerTls } from './peer-tls';
export {
  type MintedWebPushSubscription,
  mintWebPushSubscription,
  type PeerWebPush,
  SANDBOX_WEB_PUSH_URL,
  type WebPushKeys,
  WebPushPeer,
  type WebPushPeerOptions,
  type WebPushSubscriptionJson,
} from './web-push-peer';
export { mobilePushLocalPeer, webPushLocalPeer } from './push.local-peers';
