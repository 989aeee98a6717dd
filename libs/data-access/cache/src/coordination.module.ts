import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, LOGGER, type Logger, ReadinessRegistry } from '@notify/platform';
import { COORDINATION, type CoordinationStore } from './cache.port';
import { createCoordinationStore } from './coordination.factory';
import { DigestWindows } from './stores/digest-windows.store';
import { ScheduledSends } from './stores/scheduled-sends.store';
import { SuppressionCounters } from './stores/suppression-counters.store';

/**
 * Provides COORDINATION, and the typed stores over it. It closes at application shutdown, after `beforeApplicationShutdown` has let
 * bus consumers drain: their handlers may still take leases or publish while they finish.
 */
@Module({})
export class CoordinationModule implements OnApplicationShutdown {
  constructor(@Inject(COORDINATION) private readonly store: CoordinationStore) {}

  static forRoot(): DynamicModule {
    return {
      module: CoordinationModule,
      global: true,
      providers: [
        {
          provide: COORDINATION,
          inject: [APP_CONFIG, LOGGER, ReadinessRegistry],
          useFactory: (config: AppConfig, logger: Logger, readiness: ReadinessRegistry) => {
            const store = createCoordinationStore(config, logger);
            readiness.register({ name: 'cache', probe: () => store.probe() });
            return store;
          },
        },
        {
          provide: DigestWindows,
          inject: [COORDINATION, APP_CONFIG],
          useFactory: (store: CoordinationStore, config: AppConfig) =>
            new DigestWindows(store, {
              windowBytes: config.limits.digestWindowBytes,
              environmentBytes: config.limits.digestEnvironmentBytes,
            }),
        },
        {
          provide: ScheduledSends,
          inject: [COORDINATION, APP_CONFIG],
          useFactory: (store: CoordinationStore, config: AppConfig) =>
            new ScheduledSends(store, config.limits),
        },
        SuppressionCounters,
      ],
      exports: [COORDINATION, DigestWindows, ScheduledSends, SuppressionCounters],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
