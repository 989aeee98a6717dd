import type { FastifyInstance } from 'fastify';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { ServiceUnavailableError } from '@notify/util';

/** When a process stops taking new requests (0 turns a check off). */
export interface SheddingLimits {
  /** Requests served at once; the next one is refused. */
  readonly maxInFlight: number;
  /** p99 event-loop delay over the last sample window, in ms. */
  readonly maxEventLoopDelayMs: number;
  /** V8 heap in use, as a percentage of the heap limit (set by --max-old-space-size or the container). */
  readonly maxHeapUsedPercent: number;
}

export interface PressureSample {
  readonly inFlight: number;
  readonly eventLoopDelayMs: number;
  readonly heapUsedPercent: number;
}

export type Pressure = 'in_flight' | 'event_loop_delay' | 'heap';

/** Which limit a sample is over, if any (the first, in the order of the cheapest to relieve). */
export function pressureOf(sample: PressureSample, limits: SheddingLimits): Pressure | undefined {
  if (limits.maxInFlight > 0 && sample.inFlight >= limits.maxInFlight) return 'in_flight';
  if (limits.maxEventLoopDelayMs > 0 && sample.eventLoopDelayMs > limits.maxEventLoopDelayMs)
    return 'event_loop_delay';
  if (limits.maxHeapUsedPercent > 0 && sample.heapUsedPercent > limits.maxHeapUsedPercent) return 'heap';
  return undefined;
}

const SAMPLE_EVERY_MS = 500;
/** Paths never refused: an orchestrator must see a busy process as alive, not restart it. */
const ALWAYS_SERVED = /^\/health(\/|$|\?)/;

const overloaded = (pressure: Pressure) =>
  new ServiceUnavailableError(
    {
      code: 'NOT_ACCEPTED',
      message: `The service is overloaded (${pressure.replaceAll('_', ' ')}), so the request was not accepted. Nothing was done.`,
      fix: 'Retry after the Retry-After delay.',
    },
    1,
  );

/**
 * Refuses requests with 503 NOT_ACCEPTED while the process is over a limit, instead of queueing
 * them in memory: work already accepted keeps the event loop and the heap. Event-loop delay and heap
 * use are sampled every 500 ms; requests in flight are counted exactly.
 */
export function installLoadShedding(fastify: FastifyInstance, limits: SheddingLimits): void {
  let inFlight = 0;
  let sampled: Omit<PressureSample, 'inFlight'> = { eventLoopDelayMs: 0, heapUsedPercent: 0 };
  let histogram: IntervalHistogram | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (limits.maxEventLoopDelayMs > 0 || limits.maxHeapUsedPercent > 0) {
    const delays = monitorEventLoopDelay({ resolution: 10 });
    delays.enable();
    histogram = delays;
    timer = setInterval(() => {
      const heap = getHeapStatistics();
      sampled = {
        eventLoopDelayMs: delays.count > 0 ? delays.percentile(99) / 1e6 : 0,
        heapUsedPercent: (heap.used_heap_size / heap.heap_size_limit) * 100,
      };
      delays.reset();
    }, SAMPLE_EVERY_MS);
    timer.unref();
  }
  fastify.addHook('onRequest', (request, reply, done) => {
    if (ALWAYS_SERVED.test(request.url)) {
      done();
      return;
    }
    const pressure = pressureOf({ ...sampled, inFlight }, limits);
    if (pressure !== undefined) {
      done(overloaded(pressure));
      return;
    }
    inFlight++;
    reply.raw.once('close', () => inFlight--);
    done();
  });
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    histogram?.disable();
    done();
  });
}
