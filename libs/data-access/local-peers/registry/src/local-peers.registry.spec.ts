import { type Logger, loadAppConfig } from '@notify/platform';
import { LOCAL_PEERS, localPeerChannels } from './local-peers.registry';

const logger = { info: () => undefined } as unknown as Logger;

describe('the local peers registry', () => {
  it('lists each outbox channel once, in the order the dev outbox names them', () => {
    expect(localPeerChannels()).toEqual(['email', 'sms', 'call', 'mobile_push', 'web_push', 'slack']);
  });

  it('starts no peer for a channel whose provider is configured', async () => {
    const config = loadAppConfig({
      SMTP_URL: 'smtp://relay.example:25',
      TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
      TWILIO_AUTH_TOKEN: 'token',
      SLACK_CLIENT_ID: 'client',
      SLACK_CLIENT_SECRET: 'secret',
    });
    const configured = LOCAL_PEERS.filter((peer) => !peer.channels.some((c) => c.endsWith('push')));
    expect(configured.flatMap((peer) => peer.channels)).toEqual(['email', 'sms', 'call', 'slack']);
    for (const peer of configured) expect(await peer.serve(config, logger)).toBeUndefined();
  });
});
