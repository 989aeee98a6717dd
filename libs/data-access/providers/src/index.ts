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
