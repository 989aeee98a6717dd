import { Module } from '@nestjs/common';
import { AccountsModule } from '@notify/gateway-accounts';
import { AddressesModule } from '@notify/gateway-addresses';
import { BillingModule } from '@notify/gateway-billing';
import { DomainsModule } from '@notify/gateway-domains';
import { GatewayAuthModule } from '@notify/gateway-auth';
import { ComponentsModule } from '@notify/gateway-components';
import { ConsoleModule } from '@notify/gateway-console';
import { InAppModule } from '@notify/gateway-inapp';
import { InsightsModule } from '@notify/gateway-insights';
import { LegacySdkModule } from '@notify/gateway-legacy-sdk';
import { LogsModule } from '@notify/gateway-logs';
import { MembersModule } from '@notify/gateway-members';
import { NumbersModule } from '@notify/gateway-numbers';
import { OrganizationModule } from '@notify/gateway-organization';
import { PushSettingsModule } from '@notify/gateway-push-settings';
import { RegistrationsModule } from '@notify/gateway-registrations';
import { SchedulingModule } from '@notify/gateway-scheduling';
import { SendingModule } from '@notify/gateway-sending';
import { SlackModule } from '@notify/gateway-slack';
import { TemplatesModule } from '@notify/gateway-templates';
import { UsersModule } from '@notify/gateway-users';
import { WebhooksModule } from '@notify/gateway-webhooks';

/**
 * The REST API, one module per area. Needs the bus, the document store, the coordination store and
 * the event log (global modules the app imports); every route requires an API key unless marked
 * @Public().
 */
@Module({
  imports: [
    GatewayAuthModule,
    AccountsModule,
    SendingModule,
    SchedulingModule,
    UsersModule,
    InAppModule,
    SlackModule,
    PushSettingsModule,
    LogsModule,
    InsightsModule,
    TemplatesModule,
    ComponentsModule,
    WebhooksModule,
    AddressesModule,
    DomainsModule,
    MembersModule,
    NumbersModule,
    LegacySdkModule,
    OrganizationModule,
    RegistrationsModule,
    BillingModule,
    ConsoleModule,
  ],
  exports: [AccountsModule],
})
export class GatewayModule {}
