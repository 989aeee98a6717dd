export * from './document-store.port';
export { AccountOrganizations } from './account-organizations';
export { EmbeddedDocumentStore } from './embedded/embedded.document-store';
export { MongoDocumentStore } from './mongo/mongo.document-store';
export { AccountHistoryRepository } from './repositories/account-history.repository';
export { AccountRepository } from './repositories/account.repository';
export { ApiKeyRepository } from './repositories/api-key.repository';
export { AutoJoinRepository } from './repositories/auto-join.repository';
export { type BrandChange, BrandRegistrationRepository } from './repositories/brand-registration.repository';
export { InAppRepository } from './repositories/inapp/inapp.repository';
export {
  type AddressWrite,
  InboundAddressRepository,
  MAX_ADDRESS_ALIASES,
} from './repositories/inbound-address.repository';
export { InvitationRepository } from './repositories/invitation.repository';
export { MembershipRepository, type MembershipOutcome } from './repositories/membership.repository';
export { NotificationTypeRepository } from './repositories/notification-type.repository';
export { AmbiguousStripeCustomerError, OrganizationRepository } from './repositories/organization.repository';
export { PeopleRepository } from './repositories/people.repository';
export { PhoneNumberRepository, type PurchasedNumber } from './repositories/phone-number.repository';
export { PreferenceRepository } from './repositories/preference.repository';
export {
  type HandledProcessorEvent,
  ProcessorEventRepository,
} from './repositories/processor-event.repository';
export { SANDBOX_OUTBOX_KEEP, SandboxOutboxRepository } from './repositories/sandbox-outbox.repository';
export { TemplateRepository } from './repositories/template.repository';
export { ComponentRepository } from './repositories/component.repository';
export {
  type Claims,
  type MeteredEntry,
  type StoredUsage,
  UsageRepository,
} from './repositories/usage.repository';
export { UserRepository, type UserPage } from './repositories/user.repository';
export { type WebhookEndpoint, WebhookEndpointRepository } from './repositories/webhook-endpoint.repository';
export { type SendingDomain, SendingDomainRepository } from './repositories/sending-domain.repository';
export { createDocumentStore } from './store.factory';
export { StoreModule } from './store.module';
export { Collections } from './collections';
