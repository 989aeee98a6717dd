export { HttpPeer } from './http-peer';
export { PeerInbox } from './peer-inbox';
