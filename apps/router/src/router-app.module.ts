import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { RouterModule } from '@notify/router-feature';
import { StoreModule } from '@notify/store';

@Module({})
export class RouterAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: RouterAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        CoordinationModule.forRoot(),
        DeliveryEventsModule,
        RouterModule,
      ],
    };
  }
}
