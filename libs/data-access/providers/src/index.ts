export { ProvidersModule } from './providers.module';
export { ProviderResolversModule } from './provider-resolvers.module';
export { ProviderResolver, type ProviderSources } from './provider-resolver';
export { SANDBOX_PROVIDERS, type SandboxProviders, type SandboxWebPush } from './sandbox/sandbox-providers';
export { SlackApps } from './slack/slack-apps';
export { SlackResolver } from './slack/slack.resolver';
export { type ResolvedTwilio, TwilioAccounts } from './twilio/twilio-accounts';
export { type AvailableNumber, type HeldNumber, PhoneNumberProvider } from './numbers/phone-number-provider';
export { refuseUnownedSmsFrom, SenderNumbers, SmsFromNotOwnedError } from './numbers/sender-numbers';
export { TwilioPhoneNumbers } from './numbers/twilio-phone-numbers';
export { TwilioResolver } from './twilio/twilio.resolver';
export { createTwilioClient, TWILIO_API_URL, type TwilioCredentials } from './twilio/twilio-client';
export {
  isTransientTwilioError,
  twilioCallbackUrl,
  type TwilioRefusal,
  twilioRefusal,
} from './twilio/twilio-refusal';
export {
  SANDBOX_FROM_NUMBER,
  sandboxTwilioAccount,
  sandboxTwilioAccounts,
} from './sandbox/sandbox-twilio-account';
export { type ResolvedRelay, SmtpResolver } from './smtp/smtp.resolver';
export {
  type ApnsClient,
  type ApnsCredentials,
  type ApnsOptions,
  createApnsClient,
} from './push/apns-client';
export { createFcmClient, type FcmClient, type FcmCredentials, type PeerEndpoint } from './push/fcm-client';
export { webPushAgent, type WebPushAgentOptions } from './push/web-push-agent';
export { PushClients } from './push/push-clients';
export { MobilePushResolver, type ResolvedApns } from './push/mobile-push.resolver';
export { type WebPushDestination, WebPushResolver } from './push/web-push.resolver';
export { generateVapidKeys, VapidKeyring } from './push/vapid-keyring';
