import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import { SmsSenderModule } from '@notify/sender-sms-feature';
import { StoreModule } from '@notify/store';

@Module({})
export class SenderSmsAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: SenderSmsAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        ProviderSettingsModule,
        CoordinationModule.forRoot(),
        DeliveryEventsModule,
        SmsSenderModule,
      ],
    };
  }
}
