import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { METRIC_SOURCE } from '@notify/domain';
import { APP_CONFIG, type AppConfig, ReadinessRegistry } from '@notify/platform';
import type { ClickHouseMetricSource } from './clickhouse/clickhouse.metric-source';
import { openEventLog, openMetricSource } from './event-log.factory';
import { EVENT_LOG, type EventLog } from './event-log.port';

/**
 * Provides EVENT_LOG, migrated to the latest schema before the process serves anything, and
 * METRIC_SOURCE (the insights rollups), opened once the log has migrated.
 */
@Module({})
export class EventLogModule implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(METRIC_SOURCE) private readonly metrics: ClickHouseMetricSource,
  ) {}

  static forRoot(): DynamicModule {
    return {
      module: EventLogModule,
      global: true,
      providers: [
        {
          provide: EVENT_LOG,
          inject: [APP_CONFIG, ReadinessRegistry],
          useFactory: async (config: AppConfig, readiness: ReadinessRegistry) => {
            const log = await openEventLog(config);
            readiness.register({ name: 'event-log', probe: () => log.probe() });
            return log;
          },
        },
        {
          provide: METRIC_SOURCE,
          // The log's provider runs the migrations the rollups need.
          inject: [APP_CONFIG, EVENT_LOG],
          useFactory: (config: AppConfig) => openMetricSource(config),
        },
      ],
      exports: [EVENT_LOG, METRIC_SOURCE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.log.close(), this.metrics.close()]);
  }
}
