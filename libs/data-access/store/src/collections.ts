import type {
  Account,
  AccountEvent,
  Component,
  ApiKey,
  BrandRegistration,
  AutoJoinDomain,
  EmailChange,
  Invitation,
  Channel,
  Environment,
  InboundAddress,
  InAppItem,
  Membership,
  Person,
  NotificationType,
  PhoneNumberRecord,
  Organization,
  Template,
  User,
  UserPreference,
} from '@notify/domain';
import type { CollectionDefinition } from './document-store.port';

/** Stored shapes: the domain record plus the scope fields it lives under. */
type Scoped<T> = { accountId: string; envId: string } & T;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type AccountDoc = Mutable<Account>;
/**
 * A payment-processor (Stripe) event billing has handled, by the processor's event id: a delivery
 * of it again is answered without acting. Not a tenant's record: the processor's ids are global.
 */
export type ProcessorEventDoc = {
  eventId: string;
  type: string;
  organizationId?: string;
  outcome: string;
  receivedAt: string;
};
export type OrganizationDoc = Mutable<Organization>;
/** Accounts a person has created (POST /accounts, POST /organizations), kept to cap them (MAX_ACCOUNTS_PER_MEMBER). */
export type AccountQuotaDoc = { userId: string; accountsCreated: number };
/** `smtpUrl` is how 0.1 stored an environment's relay, in plain text; ProviderSettings seals it on first read. */
export type EnvironmentDoc = Mutable<Environment> & { smtpUrl?: string };
export type ApiKeyDoc = Mutable<ApiKey>;
/**
 * A user's Slack token is kept sealed with SECRETS_KEY (`slackTokenSealed`) beside its masked view
 * (`slackToken`), which reads show without opening anything. A record without `slackTokenSealed`
 * was written before tokens were sealed: its `slackToken` is the token in plain text, which
 * UserRepository masks on read and seals the first time the token is used.
 */
export type UserDoc = Scoped<Mutable<User>> & {
  slackTokenSealed?: string;
  createdAt: string;
  updatedAt: string;
};
export type NotificationTypeDoc = Scoped<Mutable<NotificationType>>;
export type TemplateDoc = Scoped<Mutable<Template>> & { channel: Channel };
/**
 * `receivedAt`: when the send came in (ms); `deliveredAt`: when the item first reached the user (a
 * live socket or a fetch), logged once.
 */
export type InAppItemDoc = Scoped<
  Mutable<InAppItem> & { userId: string; receivedAt: number; deliveredAt?: string }
>;
/** An email component of an environment; which templates use it is derived from them, not stored. */
export type ComponentDoc = Scoped<Mutable<Component>>;
/** A webhook endpoint (many per environment); `secret` is sealed with SECRETS_KEY; `isDefault` marks `/webhooks/events`'s. */
export type WebhookEndpointDoc = Scoped<{
  endpointId: string;
  webhook: string;
  events: string[];
  secret: string;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}>;
/**
 * A sending domain of an environment: its DKIM key pair (the private key sealed), and where its
 * verification stands. Times are ISO strings; `pendingSince` starts the verification window.
 */
export type SendingDomainDoc = Scoped<{
  domain: string;
  selector: string;
  publicKey: string;
  privateKeySealed: string;
  returnPathTarget?: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  mailFromStatus?: 'PENDING' | 'SUCCESS' | 'FAILED';
  reason?: string;
  pendingSince: string;
  lastSync: string;
  createdAt: string;
}>;
/**
 * An inbound email address, unique across the service. `aliasOf`: a former built-in
 * address, renamed, that still takes mail (and replies to messages sent with it) for its environment.
 */
export type InboundAddressDoc = Scoped<Mutable<InboundAddress>> & { aliasOf?: string };
export type PreferencesDoc = Scoped<{ userId: string; preferences: UserPreference[]; updatedAt: string }>;

export type PersonDoc = Mutable<Person>;
/** Claims an email for one person: the key makes two people with one address impossible. */
export type PersonEmailDoc = { email: string; userId: string };
export type MembershipDoc = Mutable<Membership>;
export type InvitationDoc = Mutable<Invitation>;
export type EmailChangeDoc = Mutable<EmailChange>;
export type AutoJoinDomainDoc = Mutable<AutoJoinDomain>;

/** One message a test environment's sandbox peer received, in a ring of slots (see SandboxOutboxRepository). */
export type SandboxOutboxDoc = Scoped<{
  channel: string;
  /** `slot-<n>`, `#seq` for the ring's counter, or a subscription id (channel `#web_push_keys`). */
  slot: string;
  seq: number;
  message?: Record<string, unknown>;
}>;

/** An account's 10DLC brand, one per account. */
export type BrandRegistrationDoc = Mutable<BrandRegistration>;
/**
 * One slot of an account's history ring (see AccountHistoryRepository): `slot-<n>` holds an event,
 * `#seq` the ring's counter.
 */
export type AccountHistoryDoc = { accountId: string; slot: string; seq: number; event?: AccountEvent };
/** A number the service bought for an account, unique across the service (see PhoneNumberRepository). */
export type PhoneNumberDoc = Mutable<PhoneNumberRecord>;

export const Collections = {
  accounts: { name: 'accounts', key: ['accountId'] } satisfies CollectionDefinition<AccountDoc>,
  organizations: {
    name: 'organizations',
    key: ['organizationId'],
    lookups: ['stripeCustomerId'],
  } satisfies CollectionDefinition<OrganizationDoc>,
  accountQuotas: { name: 'account_quotas', key: ['userId'] } satisfies CollectionDefinition<AccountQuotaDoc>,
  environments: {
    name: 'environments',
    key: ['envId'],
    lookups: ['accountId'],
  } satisfies CollectionDefinition<EnvironmentDoc>,
  apiKeys: {
    name: 'api_keys',
    key: ['keyHash'],
    lookups: ['accountId', 'envId', 'keyId'],
  } satisfies CollectionDefinition<ApiKeyDoc>,
  users: { name: 'users', key: ['accountId', 'envId', 'id'] } satisfies CollectionDefinition<UserDoc>,
  notificationTypes: {
    name: 'notification_types',
    key: ['accountId', 'envId', 'notificationId'],
  } satisfies CollectionDefinition<NotificationTypeDoc>,
  templates: {
    name: 'templates',
    key: ['accountId', 'envId', 'notificationId', 'channel', 'templateId'],
  } satisfies CollectionDefinition<TemplateDoc>,
  preferences: {
    name: 'preferences',
    key: ['accountId', 'envId', 'userId'],
  } satisfies CollectionDefinition<PreferencesDoc>,
  inappItems: {
    name: 'inapp_items',
    key: ['accountId', 'envId', 'userId', 'id'],
  } satisfies CollectionDefinition<InAppItemDoc>,
  components: {
    name: 'components',
    key: ['accountId', 'envId', 'componentId'],
  } satisfies CollectionDefinition<ComponentDoc>,
  webhookEndpoints: {
    name: 'webhook_endpoints',
    key: ['accountId', 'envId', 'endpointId'],
  } satisfies CollectionDefinition<WebhookEndpointDoc>,
  sendingDomains: {
    name: 'sending_domains',
    key: ['accountId', 'envId', 'domain'],
    lookups: ['status', 'domain'],
  } satisfies CollectionDefinition<SendingDomainDoc>,
  inboundAddresses: {
    name: 'inbound_addresses',
    key: ['fullAddress'],
    lookups: ['envId'],
  } satisfies CollectionDefinition<InboundAddressDoc>,
  sandboxOutbox: {
    name: 'sandbox_outbox',
    key: ['accountId', 'envId', 'channel', 'slot'],
  } satisfies CollectionDefinition<SandboxOutboxDoc>,
  people: { name: 'people', key: ['userId'], lookups: ['sub'] } satisfies CollectionDefinition<PersonDoc>,
  personEmails: { name: 'person_emails', key: ['email'] } satisfies CollectionDefinition<PersonEmailDoc>,
  memberships: {
    name: 'memberships',
    key: ['accountId', 'userId'],
    lookups: ['userId'],
  } satisfies CollectionDefinition<MembershipDoc>,
  invitations: {
    name: 'invitations',
    key: ['accountId', 'email'],
  } satisfies CollectionDefinition<InvitationDoc>,
  emailChanges: { name: 'email_changes', key: ['userId'] } satisfies CollectionDefinition<EmailChangeDoc>,
  autoJoinDomains: {
    name: 'auto_join_domains',
    key: ['domain'],
    lookups: ['accountId'],
  } satisfies CollectionDefinition<AutoJoinDomainDoc>,
  brandRegistrations: {
    name: 'brand_registrations',
    key: ['accountId'],
    lookups: ['brandStatus'],
  } satisfies CollectionDefinition<BrandRegistrationDoc>,
  accountHistory: {
    name: 'account_history',
    key: ['accountId', 'slot'],
  } satisfies CollectionDefinition<AccountHistoryDoc>,
  processorEvents: {
    name: 'processor_events',
    key: ['eventId'],
  } satisfies CollectionDefinition<ProcessorEventDoc>,
  phoneNumbers: {
    name: 'phone_numbers',
    key: ['phoneNumber'],
    lookups: ['accountId'],
  } satisfies CollectionDefinition<PhoneNumberDoc>,
} as const;
