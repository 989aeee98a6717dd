export { ProvidersModule } from './providers.module';
export { SlackApps } from './slack/slack-apps';
export { type ResolvedTwilio, TwilioAccounts } from './twilio/twilio-accounts';
export { createTwilioClient, TWILIO_API_URL, type TwilioCredentials } from './twilio/twilio-client';
export {
  isTransientTwilioError,
  twilioCallbackUrl,
  type TwilioRefusal,
  twilioRefusal,
} from './twilio/twilio-refusal';
export { SANDBOX_FROM_NUMBER, sandboxTwilioAccount } from './sandbox';
export {
  type ApnsClient,
  type ApnsCredentials,
  type ApnsOptions,
  createApnsClient,
} from './push/apns-client';
export { createFcmClient, type FcmClient, type FcmCredentials, type PeerEndpoint } from './push/fcm-client';
export { webPushAgent, type WebPushAgentOptions } from './push/web-push-agent';
export { PushClients } from './push/push-clients';
export { generateVapidKeys, VapidKeyring } from './push/vapid-keyring';
