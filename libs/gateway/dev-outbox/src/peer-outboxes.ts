import type { SlackPeer } from '@notify/slack-peer';
import type { TwilioPeer } from '@notify/twilio-peer';
import type { OutboxSource } from './outbox-source';

/** The Twilio peer's messages and calls as the sms and call outboxes (decisions 12 fields). */
export function twilioOutboxes(peer: TwilioPeer): OutboxSource[] {
  return [
    {
      channel: 'sms',
      messages: () =>
        peer.sms().map(({ id, receivedAt, trackingId, to, from, body, mediaUrls }) => ({
          id,
          receivedAt,
          trackingId,
          to,
          from,
          body,
          mediaUrls,
        })),
      remove: (ids) => peer.remove('sms', ids),
    },
    {
      channel: 'call',
      messages: () =>
        peer
          .calls()
          .map(({ id, receivedAt, trackingId, to, from, say }) => ({
            id,
            receivedAt,
            trackingId,
            to,
            from,
            say,
          })),
      remove: (ids) => peer.remove('call', ids),
    },
  ];
}

/** The Slack peer's messages as the slack outbox. */
export function slackOutbox(peer: SlackPeer): OutboxSource {
  return {
    channel: 'slack',
    messages: () =>
      peer
        .messages()
        .map(({ id, receivedAt, trackingId, channel, text, blocks, thread_ts, username, icon }) => ({
          id,
          receivedAt,
          trackingId,
          channel,
          text,
          blocks,
          thread_ts,
          username,
          icon,
        })),
    remove: (ids) => peer.remove(ids),
  };
}
