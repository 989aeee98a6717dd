import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, LOGGER, type Logger, ReadinessRegistry } from '@notify/platform';
import { COORDINATION, type CoordinationStore } from './cache.port';
import { createCoordinationStore } from './coordination.factory';
import { AddressChangeLocksStore } from './stores/address-change-locks.store';
import { ApiKeyRevocationsStore } from './stores/api-key-revocations.store';
import { AuthFailuresStore } from './stores/auth-failures.store';
import { ComponentChangesStore } from './stores/component-changes.store';
import { ConsoleSignInLinksStore } from './stores/console-sign-in-links.store';
import { DigestWindowsStore } from './stores/digest-windows.store';
import { EmailRepliesStore } from './stores/email/email-replies.store';
import { EnvironmentSettingsChangesStore } from './stores/environment-settings-changes.store';
import { IdempotencyRecordsStore } from './stores/idempotency-records.store';
import { InAppFanoutStore } from './stores/inapp/inapp-fanout.store';
import { LogQueriesStore } from './stores/log-queries.store';
import { NotificationTypeChangesStore } from './stores/notification-type-changes.store';
import { PeriodicTurnsStore } from './stores/periodic-turns.store';
import { ProviderSettingsChangesStore } from './stores/provider-settings-changes.store';
import { ScheduledSendsStore } from './stores/scheduled-sends.store';
import { SendingDomainChangesStore } from './stores/sending-domain-changes.store';
import { SmsConversationsStore } from './stores/sms/sms-conversations.store';
import { SuppressionCountersStore } from './stores/suppression-counters.store';
import { TrackingLimitsStore } from './stores/tracking-limits.store';
import { UsageLimitsStore } from './stores/usage-limits.store';
import { WebhookAttemptsStore } from './stores/webhook-attempts.store';
import { WebhookDeliveriesStore } from './stores/webhook-deliveries.store';
import { WebhookEndpointChangesStore } from './stores/webhook-endpoint-changes.store';

/** The typed stores that need nothing but the coordination store (the rest are built below). */
const STORES = [
  AddressChangeLocksStore,
  ApiKeyRevocationsStore,
  AuthFailuresStore,
  ComponentChangesStore,
  ConsoleSignInLinksStore,
  EmailRepliesStore,
  EnvironmentSettingsChangesStore,
  IdempotencyRecordsStore,
  InAppFanoutStore,
  LogQueriesStore,
  NotificationTypeChangesStore,
  PeriodicTurnsStore,
  ProviderSettingsChangesStore,
  SendingDomainChangesStore,
  SmsConversationsStore,
  SuppressionCountersStore,
  TrackingLimitsStore,
  UsageLimitsStore,
  WebhookAttemptsStore,
  WebhookDeliveriesStore,
  WebhookEndpointChangesStore,
];

/**
 * Provides COORDINATION, and the typed stores over it; the delivery ledger, which keeps a liveness
 * mark while it runs, is provided by the sender modules, so only senders write one. It closes at
 * application shutdown, after `beforeApplicationShutdown` has let bus consumers drain: their
 * handlers may still take leases or publish while they finish.
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
          provide: DigestWindowsStore,
          inject: [COORDINATION, APP_CONFIG],
          useFactory: (store: CoordinationStore, config: AppConfig) =>
            new DigestWindowsStore(store, {
              windowBytes: config.limits.digestWindowBytes,
              environmentBytes: config.limits.digestEnvironmentBytes,
            }),
        },
        {
          provide: ScheduledSendsStore,
          inject: [COORDINATION, APP_CONFIG],
          useFactory: (store: CoordinationStore, config: AppConfig) =>
            new ScheduledSendsStore(store, config.limits),
        },
        ...STORES,
      ],
      exports: [COORDINATION, DigestWindowsStore, ScheduledSendsStore, ...STORES],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
