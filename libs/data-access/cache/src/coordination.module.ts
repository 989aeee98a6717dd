import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, LOGGER, type Logger, ReadinessRegistry } from '@notify/platform';
import { COORDINATION, type CoordinationStore } from './cache.port';
import { createCoordinationStore } from './coordination.factory';
import { DigestWindows } from './digest-windows';
import { AddressChangeLocksStore } from './stores/address-change-locks.store';
import { ApiKeyRevocationsStore } from './stores/api-key-revocations.store';
import { AuthFailuresStore } from './stores/auth-failures.store';
import { IdempotencyRecordsStore } from './stores/idempotency-records.store';
import { InAppFanoutStore } from './stores/inapp-fanout.store';
import { LogQueriesStore } from './stores/log-queries.store';
import { WebhookEndpointChangesStore } from './stores/webhook-endpoint-changes.store';

/** The typed stores of the gateway's coordination state. */
const GATEWAY_STORES = [
  AddressChangeLocksStore,
  ApiKeyRevocationsStore,
  AuthFailuresStore,
  IdempotencyRecordsStore,
  InAppFanoutStore,
  LogQueriesStore,
  WebhookEndpointChangesStore,
];

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
        ...GATEWAY_STORES,
      ],
      exports: [COORDINATION, DigestWindows, ...GATEWAY_STORES],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
