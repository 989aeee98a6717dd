import type { LocalPeer } from '@notify/local-peer-kit';
import { mailLocalPeer } from '@notify/local-peer-mail';
import { mobilePushLocalPeer, webPushLocalPeer } from '@notify/local-peer-push';
import { slackLocalPeer } from '@notify/local-peer-slack';
import { twilioLocalPeer } from '@notify/local-peer-twilio';

/**
 * Every local peer, one line each: the all-in-one service starts them in this order and the dev
 * outbox lists their channels in it. A new channel's peer is its folder plus one line here.
 */
export const LOCAL_PEERS: readonly LocalPeer[] = [
  mailLocalPeer,
  twilioLocalPeer,
  mobilePushLocalPeer,
  webPushLocalPeer,
  slackLocalPeer,
];

/** The channels of every outbox a local peer fills, in registry order. */
export const localPeerChannels = (): readonly string[] => LOCAL_PEERS.flatMap((peer) => peer.channels);
