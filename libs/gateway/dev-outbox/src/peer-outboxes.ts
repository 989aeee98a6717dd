import {
  type ApnsPeer,
  type FcmPeer,
  mobilePushOutboxView,
  type WebPushPeer,
  webPushOutboxView,
} from '@notify/local-peer-push';
import { type SlackPeer, slackOutboxView } from '@notify/local-peer-slack';
import { callOutboxView, smsOutboxView, type TwilioPeer } from '@notify/local-peer-twilio';
import type { OutboxSource } from './outbox-source';

/** The Twilio peer's messages and calls as the sms and call outboxes. */
export function twilioOutboxes(peer: TwilioPeer): OutboxSource[] {
  return [
    {
      channel: 'sms',
      messages: () => peer.sms().map(smsOutboxView),
      remove: (ids) => peer.remove('sms', ids),
      inbound: (url, message) => peer.inboundSms(url, message),
    },
    {
      channel: 'call',
      messages: () => peer.calls().map(callOutboxView),
      remove: (ids) => peer.remove('call', ids),
    },
  ];
}

/** The Slack peer's messages as the slack outbox. */
export function slackOutbox(peer: SlackPeer): OutboxSource {
  return {
    channel: 'slack',
    messages: () => peer.messages().map(slackOutboxView),
    remove: (ids) => peer.remove(ids),
  };
}

/** The FCM and APNs peers' pushes as the mobile_push outbox, oldest first. */
export function mobilePushOutbox(peers: readonly (FcmPeer | ApnsPeer)[]): OutboxSource {
  return {
    channel: 'mobile_push',
    messages: () =>
      peers
        .flatMap((peer) => peer.messages().map(mobilePushOutboxView))
        .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt)),
    remove: (ids) => {
      for (const peer of peers) peer.remove(ids);
    },
  };
}

/** The web push peer's decrypted pushes as the web_push outbox; it also mints subscriptions. */
export function webPushOutbox(peer: WebPushPeer): OutboxSource {
  return {
    channel: 'web_push',
    messages: () => peer.messages().map(webPushOutboxView),
    remove: (ids) => peer.remove(ids),
    subscribe: () => peer.subscribe(),
  };
}
