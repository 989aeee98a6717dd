import { type SlackPeer, slackOutboxView } from '@notify/slack-peer';
import { callOutboxView, smsOutboxView, type TwilioPeer } from '@notify/twilio-peer';
import type { OutboxSource } from './outbox-source';

/** The Twilio peer's messages and calls as the sms and call outboxes. */
export function twilioOutboxes(peer: TwilioPeer): OutboxSource[] {
  return [
    {
      channel: 'sms',
      messages: () => peer.sms().map(smsOutboxView),
      remove: (ids) => peer.remove('sms', ids),
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
