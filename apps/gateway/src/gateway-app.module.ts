import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';

@Module({})
export class GatewayAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return { module: GatewayAppModule, imports: [PlatformModule.forRoot(config, logger)] };
  }
}
