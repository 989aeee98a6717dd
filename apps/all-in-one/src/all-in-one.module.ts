import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { EventLogModule } from '@notify/event-log';
import { GatewayModule } from '@notify/gateway-feature';
import { DevMailModule } from '@notify/gateway-dev-outbox';
import type { MailCatcher } from '@notify/mail-catcher';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import { RecorderModule } from '@notify/recorder-feature';
import { RouterModule } from '@notify/router-feature';
import { EmailSenderModule } from '@notify/sender-email-feature';
import { StoreModule } from '@notify/store';

/** Every service module in one process, on the embedded adapters unless configured otherwise. */
@Module({})
export class AllInOneModule {
  static forRoot(config: AppConfig, logger: Logger, catcher: MailCatcher | undefined): DynamicModule {
    return {
      module: AllInOneModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        ProviderSettingsModule,
        CoordinationModule.forRoot(),
        EventLogModule.forRoot(),
        DeliveryEventsModule,
        GatewayModule,
        RouterModule,
        EmailSenderModule,
        RecorderModule,
        ...(catcher === undefined ? [] : [DevMailModule.forRoot(catcher)]),
      ],
    };
  }
}
