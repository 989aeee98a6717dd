import { type DynamicModule, Module } from '@nestjs/common';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { EventLogModule } from '@notify/event-log';
import { DevOutboxModule } from '@notify/gateway-dev-outbox';
import { GatewayModule } from '@notify/gateway-feature';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import { RecorderModule } from '@notify/recorder-feature';
import { StoreModule } from '@notify/store';

/**
 * The API. With an embedded event log (no CLICKHOUSE_URL) the engine lives in one process, so this
 * process also runs the recorder, the log's only writer; with a ClickHouse server the recorder
 * runs as its own service.
 */
@Module({})
export class GatewayAppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    const ownsEventLog = config.eventLog.url === undefined;
    return {
      module: GatewayAppModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        ProviderSettingsModule,
        CoordinationModule.forRoot(),
        EventLogModule.forRoot(),
        DeliveryEventsModule,
        GatewayModule,
        // Test environments' sandbox outbox; the local peers themselves run in the all-in-one only.
        DevOutboxModule.forRoot([]),
        ...(ownsEventLog ? [RecorderModule] : []),
      ],
    };
  }
}
