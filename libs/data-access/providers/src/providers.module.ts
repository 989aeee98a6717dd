import { Module } from '@nestjs/common';
import { PhoneNumberProvider } from './numbers/phone-number-provider';
import { SenderNumbers } from './numbers/sender-numbers';
import { TwilioPhoneNumbers } from './numbers/twilio-phone-numbers';
import { PushClients } from './push/push-clients';
import { VapidKeyring } from './push/vapid-keyring';
import { SlackApps } from './slack/slack-apps';
import { TwilioAccounts } from './twilio/twilio-accounts';

/** Provider clients built from each environment's settings (or the deployment's defaults); needs ProviderSettingsModule. */
@Module({
  providers: [
    TwilioAccounts,
    SlackApps,
    PushClients,
    VapidKeyring,
    SenderNumbers,
    { provide: PhoneNumberProvider, useClass: TwilioPhoneNumbers },
  ],
  exports: [TwilioAccounts, SlackApps, PushClients, VapidKeyring, SenderNumbers, PhoneNumberProvider],
})
export class ProvidersModule {}
