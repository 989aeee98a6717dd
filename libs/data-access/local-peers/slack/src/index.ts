export { type PeerSlackMessage, SlackPeer, type SlackPeerOptions, slackOutboxView } from './slack-peer';
export { slackLocalPeer } from './slack.local-peer';
