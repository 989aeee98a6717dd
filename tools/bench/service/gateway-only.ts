// The accept path alone, for profiling: the gateway module on embedded backends with nothing
// consuming what it accepts. `node --cpu-prof -r tools/testing/register-ts.cjs this-file`.
import 'reflect-metadata';
import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { EventLogModule } from '@notify/event-log';
import { GatewayModule, ProvisionTenantUseCase } from '@notify/gateway-feature';
import { type AppConfig, type Logger, PlatformModule, runService } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import { StoreModule } from '@notify/store';

@Module({})
class GatewayOnlyModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: GatewayOnlyModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        ProviderSettingsModule,
        CoordinationModule.forRoot(),
        EventLogModule.forRoot(),
        GatewayModule,
      ],
    };
  }
}

void runService({
  name: 'gateway-only',
  rootModule: (config, logger) => GatewayOnlyModule.forRoot(config, logger),
  onListening: async ({ app, config }) => {
    await app.get(ProvisionTenantUseCase).execute({ apiKey: config.dev.bootstrapApiKey });
  },
});
