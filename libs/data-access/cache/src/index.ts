export * from './cache.port';
export { createCoordinationStore } from './coordination.factory';
export { CoordinationModule } from './coordination.module';
export {
  type ClaimedDigest,
  type DigestDue,
  type DigestGroup,
  DigestWindows,
  type DigestWindowLimits,
  type HoldOutcome,
} from './stores/digest-windows.store';
export { type ClaimedSend, ScheduledSends } from './stores/scheduled-sends.store';
export { SuppressionCounters } from './stores/suppression-counters.store';
export {
  EmbeddedCoordinationStore,
  type EmbeddedCoordinationStoreOptions,
} from './embedded/embedded.coordination';
export { RedisCoordinationStore, type RedisCoordinationStoreOptions } from './redis/redis.coordination';
export { TrackingLimitsStore } from './tracking-limits.store';
