import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import { StoreModule } from '@notify/store';

/** A channel sender running on its own: the backends every sender needs, and its channel's module. */
@Module({})
export class SenderAppModule {
  static forRoot(config: AppConfig, logger: Logger, channel: Type): DynamicModule {
    return {
      module: SenderAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        ProviderSettingsModule,
        CoordinationModule.forRoot(),
        DeliveryEventsModule,
        channel,
      ],
    };
  }
}
