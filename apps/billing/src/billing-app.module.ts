import { type DynamicModule, Module } from '@nestjs/common';
import { MeteringModule } from '@notify/billing-feature';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { StoreModule } from '@notify/store';

@Module({})
export class BillingAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: BillingAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        CoordinationModule.forRoot(),
        MeteringModule,
      ],
    };
  }
}
