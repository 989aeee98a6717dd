import { LOCAL_PEER_KEEP, type LocalPeer } from '@notify/local-peer-kit';
import { SlackPeer, slackOutboxView } from './slack-peer';

/** The Slack peer, for Slack without an app configured; its messages are the slack outbox. */
export const slackLocalPeer: LocalPeer = {
  channels: ['slack'],
  async serve(config) {
    if (config.slack.clientId !== undefined) return undefined;
    const peer = new SlackPeer({ keep: LOCAL_PEER_KEEP });
    await peer.start();
    return {
      config: {
        ...config,
        slack: { clientId: peer.clientId, clientSecret: peer.clientSecret, apiUrl: peer.url },
      },
      outboxes: [
        {
          channel: 'slack',
          messages: () => peer.messages().map(slackOutboxView),
          remove: (ids) => peer.remove(ids),
        },
      ],
    };
  },
};
