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
export {
  type Claim,
  DeliveryInProgressError,
  type DeliveryKey,
  DeliveryLedgerStore,
} from './stores/delivery-ledger.store';
export { EmailRepliesStore } from './stores/email-replies.store';
export { InAppFanoutStore } from './stores/inapp-fanout.store';
