export { HttpPeer } from './http-peer';
export {
  LOCAL_PEER_KEEP,
  type LocalPeer,
  type MintedSubscription,
  type OutboxMessage,
  type OutboxSource,
  type ServedPeer,
} from './local-peer';
export { PeerInbox } from './peer-inbox';
