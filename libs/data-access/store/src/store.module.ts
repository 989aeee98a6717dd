import {
  type DynamicModule,
  Inject,
  Module,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig, ReadinessRegistry } from '@notify/platform';
import { DOCUMENT_STORE, type DocumentStore } from './document-store.port';
import { AccountHistoryRepository } from './repositories/account-history.repository';
import { AccountRepository } from './repositories/account.repository';
import { ApiKeyRepository } from './repositories/api-key.repository';
import { AutoJoinRepository } from './repositories/auto-join.repository';
import { BrandRegistrationRepository } from './repositories/brand-registration.repository';
import { InAppRepository } from './repositories/inapp/inapp.repository';
import { InboundAddressRepository } from './repositories/inbound-address.repository';
import { InvitationRepository } from './repositories/invitation.repository';
import { MembershipRepository } from './repositories/membership.repository';
import { NotificationTypeRepository } from './repositories/notification-type.repository';
import { OrganizationRepository } from './repositories/organization.repository';
import { PeopleRepository } from './repositories/people.repository';
import { PhoneNumberRepository } from './repositories/phone-number.repository';
import { PreferenceRepository } from './repositories/preference.repository';
import { ProcessorEventRepository } from './repositories/processor-event.repository';
import { SandboxOutboxRepository } from './repositories/sandbox-outbox.repository';
import { ComponentRepository } from './repositories/component.repository';
import { SendingDomainRepository } from './repositories/sending-domain.repository';
import { TemplateRepository } from './repositories/template.repository';
import { UserRepository } from './repositories/user.repository';
import { WebhookEndpointRepository } from './repositories/webhook-endpoint.repository';
import { createDocumentStore } from './store.factory';

const repositories = [
  AccountHistoryRepository,
  AccountRepository,
  ApiKeyRepository,
  AutoJoinRepository,
  BrandRegistrationRepository,
  ComponentRepository,
  InAppRepository,
  InboundAddressRepository,
  InvitationRepository,
  MembershipRepository,
  NotificationTypeRepository,
  OrganizationRepository,
  PeopleRepository,
  PhoneNumberRepository,
  PreferenceRepository,
  ProcessorEventRepository,
  SandboxOutboxRepository,
  SendingDomainRepository,
  TemplateRepository,
  UserRepository,
  WebhookEndpointRepository,
];

/** Provides the repositories over the configured document store (MongoDB or embedded). */
@Module({})
export class StoreModule implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(DOCUMENT_STORE) private readonly store: DocumentStore) {}

  static forRoot(): DynamicModule {
    return {
      module: StoreModule,
      global: true,
      providers: [
        {
          provide: DOCUMENT_STORE,
          inject: [APP_CONFIG, ReadinessRegistry],
          useFactory: (config: AppConfig, readiness: ReadinessRegistry) => {
            const store = createDocumentStore(config);
            readiness.register({ name: 'store', probe: () => store.probe() });
            return store;
          },
        },
        ...repositories,
      ],
      exports: [DOCUMENT_STORE, ...repositories],
    };
  }

  /** Index creation is idempotent; the Helm migrations job runs the same step before a rollout. */
  async onModuleInit(): Promise<void> {
    await this.store.ensureIndexes();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
