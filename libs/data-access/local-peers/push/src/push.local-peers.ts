import { LOCAL_PEER_KEEP, type LocalPeer } from '@notify/local-peer-kit';
import { ApnsPeer } from './apns-peer';
import { FcmPeer } from './fcm-peer';
import { mobilePushOutboxView, webPushOutboxView } from './outbox-views';
import { mintWebPushSubscription, SANDBOX_WEB_PUSH_URL, WebPushPeer } from './web-push-peer';

/** The CA certificates (PEM) push connections trust beyond the system's: the operator's and the peers'. */
const withCa = (given: string | undefined, peerCa: string) =>
  given === undefined ? peerCa : given.includes(peerCa) ? given : `${given}\n${peerCa}`;

/**
 * Mobile push without credentials or a configured endpoint goes to local FCM and APNs peers (the
 * default credentials are made for them here). They are the providers of this installation, so
 * they also accept the well-formed credentials an environment sets for itself (PUT
 * /settings/push/fcm, /apn): a newcomer rehearses with their own key files and sees the pushes in
 * the outbox, both peers' pushes in one, oldest first.
 */
export const mobilePushLocalPeer: LocalPeer = {
  channels: ['mobile_push'],
  async serve(config) {
    let push = config.push;
    const mobile: (FcmPeer | ApnsPeer)[] = [];
    if (push.fcmServiceAccount === undefined && push.peers.fcmUrl === undefined) {
      const fcm = new FcmPeer({ keep: LOCAL_PEER_KEEP, acceptAnyAccount: true });
      await fcm.start();
      push = {
        ...push,
        fcmServiceAccount: JSON.stringify(fcm.registerServiceAccount()),
        peers: { ...push.peers, fcmUrl: fcm.url, ca: withCa(push.peers.ca, fcm.ca) },
      };
      mobile.push(fcm);
    }
    if (push.apns === undefined && push.peers.apnsUrl === undefined) {
      const apns = new ApnsPeer({ keep: LOCAL_PEER_KEEP, acceptAnyKey: true });
      await apns.start();
      const key = apns.registerKey();
      push = {
        ...push,
        apns: { keyId: key.keyId, teamId: key.teamId, key: key.key, topic: 'dev.notify.local' },
        peers: { ...push.peers, apnsUrl: apns.url, ca: withCa(push.peers.ca, apns.ca) },
      };
      mobile.push(apns);
    }
    if (mobile.length === 0) return undefined;
    return {
      config: { ...config, push },
      outboxes: [
        {
          channel: 'mobile_push',
          messages: () =>
            mobile
              .flatMap((peer) => peer.messages().map(mobilePushOutboxView))
              .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt)),
          remove: (ids) => {
            for (const peer of mobile) peer.remove(ids);
          },
        },
      ],
    };
  },
};

/**
 * Web push without a configured endpoint goes to a local web push peer. Subscriptions it mints
 * (`POST /dev/outbox/web_push/subscriptions`) reach it without the egress guard, and what is
 * pushed to them is decrypted into the web_push outbox.
 */
export const webPushLocalPeer: LocalPeer = {
  channels: ['web_push'],
  async serve(config) {
    if (config.push.peers.webPushUrl !== undefined) return undefined;
    const peer = new WebPushPeer({ keep: LOCAL_PEER_KEEP });
    await peer.start();
    const peers = { ...config.push.peers, webPushUrl: peer.url, ca: withCa(config.push.peers.ca, peer.ca) };
    return {
      config: { ...config, push: { ...config.push, peers } },
      outboxes: [
        {
          channel: 'web_push',
          messages: () => peer.messages().map(webPushOutboxView),
          remove: (ids) => peer.remove(ids),
          subscribe: () => peer.subscribe(),
        },
      ],
    };
  },
  mintSandboxSubscription: () => mintWebPushSubscription(SANDBOX_WEB_PUSH_URL),
};
