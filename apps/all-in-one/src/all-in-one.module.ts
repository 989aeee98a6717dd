import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';

/** Every service module in one process, on the embedded adapters unless configured otherwise. */
@Module({})
export class AllInOneModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return { module: AllInOneModule, imports: [PlatformModule.forRoot(config, logger)] };
  }
}
