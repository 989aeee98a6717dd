export * from './cache.port';
export { createCoordinationStore } from './coordination.factory';
export { CoordinationModule } from './coordination.module';
export {
  type ClaimedDigest,
  type DigestDue,
  type DigestGroup,
  DigestWindowsStore,
  type DigestWindowLimits,
  type HoldOutcome,
} from './stores/digest-windows.store';
export { type ClaimedSend, ScheduledSendsStore } from './stores/scheduled-sends.store';
export { SuppressionCountersStore } from './stores/suppression-counters.store';
export {
  EmbeddedCoordinationStore,
  type EmbeddedCoordinationStoreOptions,
} from './embedded/embedded.coordination';
export { RedisCoordinationStore, type RedisCoordinationStoreOptions } from './redis/redis.coordination';
export {
  type Claim,
  DeliveryInProgressError,
  type DeliveryKey,
  DeliveryLedgerStore,
} from './stores/delivery-ledger.store';
export { InAppFanoutStore } from './stores/inapp/inapp-fanout.store';
export { EmailRepliesStore } from './stores/email/email-replies.store';
export { SmsConversationsStore } from './stores/sms/sms-conversations.store';
export { TrackingLimitsStore } from './stores/tracking-limits.store';
export {
  type ClaimedDelivery,
  type WebhookDelivery,
  WebhookDeliveriesStore,
} from './stores/webhook-deliveries.store';
export {
  type SendingDomainChange,
  type SendingDomainChangeKind,
  SendingDomainChangesStore,
} from './stores/sending-domain-changes.store';
export {
  KEPT_PAYLOAD_BYTES,
  type WebhookAttempt,
  webhookAttemptStatusSchema,
  WebhookAttemptsStore,
} from './stores/webhook-attempts.store';
export { WebhookEndpointChangesStore } from './stores/webhook-endpoint-changes.store';
export { ComponentChangesStore } from './stores/component-changes.store';
export { EnvironmentSettingsChangesStore } from './stores/environment-settings-changes.store';
export { NotificationTypeChangesStore } from './stores/notification-type-changes.store';
export { ProviderSettingsChangesStore } from './stores/provider-settings-changes.store';
export { EnvironmentChangesStore } from './stores/environment-changes.store';
export { EnvironmentCache, type EnvironmentCacheOptions } from './environment-cache';
export { AddressChangeLocksStore } from './stores/address-change-locks.store';
export { PeriodicTurnsStore } from './stores/periodic-turns.store';
export { ApiKeyRevocationsStore } from './stores/api-key-revocations.store';
export { AuthFailuresStore } from './stores/auth-failures.store';
export {
  type ConsoleSignInRecord,
  ConsoleSignInLinksStore,
  type RedeemOutcome,
} from './stores/console-sign-in-links.store';
export { type IdempotencyRecord, IdempotencyRecordsStore } from './stores/idempotency-records.store';
export { LogQueriesStore } from './stores/log-queries.store';
export { activeUntil, UsageLimitsStore } from './stores/usage-limits.store';
