import { Module } from '@nestjs/common';
import { PushClients } from './push/push-clients';
import { VapidKeyring } from './push/vapid-keyring';
import { SlackApps } from './slack/slack-apps';
import { TwilioAccounts } from './twilio/twilio-accounts';

/** Provider clients built from each environment's settings (or the deployment's defaults); needs ProviderSettingsModule. */
@Module({
  providers: [TwilioAccounts, SlackApps, PushClients, VapidKeyring],
  exports: [TwilioAccounts, SlackApps, PushClients, VapidKeyring],
})
export class ProvidersModule {}
