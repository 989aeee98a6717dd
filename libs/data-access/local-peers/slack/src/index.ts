export { type PeerSlackMessage, SlackPeer, type SlackPeerOptions, slackOutboxView } from './slack-peer';
