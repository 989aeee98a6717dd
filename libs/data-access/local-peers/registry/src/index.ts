export { LOCAL_PEERS, localPeerChannels } from './local-peers.registry';
