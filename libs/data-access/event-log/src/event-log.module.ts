import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, ReadinessRegistry } from '@notify/platform';
import { openEventLog } from './event-log.factory';
import { EVENT_LOG, type EventLog } from './event-log.port';

/** Provides EVENT_LOG, migrated to the latest schema before the process serves anything. */
@Module({})
export class EventLogModule implements OnApplicationShutdown {
  constructor(@Inject(EVENT_LOG) private readonly log: EventLog) {}

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
      ],
      exports: [EVENT_LOG],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.log.close();
  }
}
