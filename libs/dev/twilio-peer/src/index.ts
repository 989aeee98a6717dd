export {
  type PeerCall,
  type PeerEntry,
  type PeerSms,
  TwilioPeer,
  type TwilioPeerOptions,
} from './twilio-peer';
