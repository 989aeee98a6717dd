import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig, LOGGER, type Logger, ReadinessRegistry } from '@notify/platform';
import { createEventBus } from './bus.factory';
import { EVENT_BUS, type EventBus } from './event-bus.port';

/**
 * Provides EVENT_BUS. Shutdown happens in two steps: consumers drain before the HTTP server and the
 * other backends close (their handlers still need them), and the producer closes last.
 */
@Module({})
export class BusModule implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  static forRoot(): DynamicModule {
    return {
      module: BusModule,
      global: true,
      providers: [
        {
          provide: EVENT_BUS,
          inject: [APP_CONFIG, LOGGER, ReadinessRegistry],
          useFactory: (config: AppConfig, logger: Logger, readiness: ReadinessRegistry) => {
            const bus = createEventBus(config, logger);
            readiness.register({ name: 'bus', probe: () => bus.probe() });
            return bus;
          },
        },
      ],
      exports: [EVENT_BUS],
    };
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.bus.drain();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}
