import { LOCAL_PEER_KEEP, type LocalPeer } from '@notify/local-peer-kit';
import { callOutboxView, smsOutboxView, TwilioPeer } from './twilio-peer';

/** Twilio's magic "from" number: valid for test credentials, and the local peer's default sender. */
const LOCAL_FROM_NUMBER = '+15005550006';

/** The Twilio peer, for SMS and calls without a Twilio account configured; its messages and calls are the sms and call outboxes. */
export const twilioLocalPeer: LocalPeer = {
  channels: ['sms', 'call'],
  async serve(config) {
    if (config.twilio.accountSid !== undefined) return undefined;
    const peer = new TwilioPeer({ keep: LOCAL_PEER_KEEP });
    await peer.start();
    return {
      config: {
        ...config,
        twilio: {
          ...config.twilio,
          accountSid: peer.accountSid,
          authToken: peer.authToken,
          fromNumber: config.twilio.fromNumber ?? LOCAL_FROM_NUMBER,
          apiUrl: peer.url,
        },
      },
      outboxes: [
        {
          channel: 'sms',
          messages: () => peer.sms().map(smsOutboxView),
          remove: (ids) => peer.remove('sms', ids),
          inbound: (url, message) => peer.inboundSms(url, message),
        },
        {
          channel: 'call',
          messages: () => peer.calls().map(callOutboxView),
          remove: (ids) => peer.remove('call', ids),
        },
      ],
    };
  },
};
