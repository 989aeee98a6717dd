export {
  callOutboxView,
  type PeerCall,
  type PeerEntry,
  type PeerSms,
  smsOutboxView,
  TwilioPeer,
  type TwilioPeerOptions,
} from './twilio-peer';
export { twilioLocalPeer } from './twilio.local-peer';
