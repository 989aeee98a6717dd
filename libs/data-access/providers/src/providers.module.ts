import { Module } from '@nestjs/common';
import { SlackApps } from './slack/slack-apps';
import { TwilioAccounts } from './twilio/twilio-accounts';

/** Provider clients built from each environment's settings (or the deployment's defaults); needs ProviderSettingsModule. */
@Module({
  providers: [TwilioAccounts, SlackApps],
  exports: [TwilioAccounts, SlackApps],
})
export class ProvidersModule {}
