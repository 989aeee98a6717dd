import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { InboundModule } from '@notify/inbound-feature';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import { StoreModule } from '@notify/store';

@Module({})
export class InboundAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: InboundAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        ProviderSettingsModule,
        CoordinationModule.forRoot(),
        DeliveryEventsModule,
        InboundModule,
      ],
    };
  }
}
