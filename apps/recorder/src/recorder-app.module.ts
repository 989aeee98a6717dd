import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { EventLogModule } from '@notify/event-log';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { RecorderModule } from '@notify/recorder-feature';

@Module({})
export class RecorderAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: RecorderAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        EventLogModule.forRoot(),
        RecorderModule,
      ],
    };
  }
}
