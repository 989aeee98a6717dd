export * from './event-bus.port';
export { createEventBus } from './bus.factory';
export { BusModule } from './bus.module';
export { EmbeddedBus, type EmbeddedBusOptions } from './embedded/embedded.bus';
export { KafkaBus, type KafkaBusOptions } from './kafka/kafka.bus';
export { DEFAULT_RETRY } from './retry';
