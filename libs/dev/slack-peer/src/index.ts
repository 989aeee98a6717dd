export { type PeerSlackMessage, SlackPeer, type SlackPeerOptions } from './slack-peer';
