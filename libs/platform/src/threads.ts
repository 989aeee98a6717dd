// What a worker thread's entry imports from the platform: the thread protocol and the egress guard,
// without the rest of the barrel (NestJS, logging, telemetry), which would cost every thread ~35 MiB.
export { connectGuarded, EgressError, type EgressPolicy } from './egress/guard';
export { serveThread } from './threads/thread-protocol';
