import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import { CallSenderModule } from '@notify/sender-call-feature';
import { StoreModule } from '@notify/store';

@Module({})
export class SenderCallAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: SenderCallAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        ProviderSettingsModule,
        CoordinationModule.forRoot(),
        DeliveryEventsModule,
        CallSenderModule,
      ],
    };
  }
}
