import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { StoreModule } from '@notify/store';
import { WebhookDispatcherModule } from '@notify/webhooks-feature';

@Module({})
export class WebhookDispatcherAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: WebhookDispatcherAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        CoordinationModule.forRoot(),
        DeliveryEventsModule,
        WebhookDispatcherModule,
      ],
    };
  }
}
