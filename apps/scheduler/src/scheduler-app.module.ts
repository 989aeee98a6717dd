import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { SchedulerModule } from '@notify/scheduler-feature';

@Module({})
export class SchedulerAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: SchedulerAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        CoordinationModule.forRoot(),
        SchedulerModule,
      ],
    };
  }
}
