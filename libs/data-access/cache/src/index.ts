export * from './cache.port';
export { createCoordinationStore } from './coordination.factory';
export { CoordinationModule } from './coordination.module';
export { DigestWindows, type DigestWindowLimits, type HoldOutcome } from './digest-windows';
export {
  EmbeddedCoordinationStore,
  type EmbeddedCoordinationStoreOptions,
} from './embedded/embedded.coordination';
export { RedisCoordinationStore, type RedisCoordinationStoreOptions } from './redis/redis.coordination';
export { TrackingLimitsStore } from './tracking-limits.store';
export { AddressChangeLocksStore } from './stores/address-change-locks.store';
export { ApiKeyRevocationsStore } from './stores/api-key-revocations.store';
export { AuthFailuresStore } from './stores/auth-failures.store';
export { type IdempotencyRecord, IdempotencyRecordsStore } from './stores/idempotency-records.store';
export { InAppFanoutStore } from './stores/inapp-fanout.store';
export { LogQueriesStore } from './stores/log-queries.store';
export { WebhookEndpointChangesStore, webhookScopeKey } from './stores/webhook-endpoint-changes.store';
