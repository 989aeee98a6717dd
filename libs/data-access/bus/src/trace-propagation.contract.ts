import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { eventually, requireBackend, uniqueName } from '@notify/testing';
import { z } from 'zod';
import type { EventBus } from './event-bus.port';
import { newLocation, openBus } from './testing/bus-harness';

const exporter = new InMemorySpanExporter();

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
});

afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

describe.each(['embedded', 'kafka'] as const)('trace context across the bus (%s)', (adapter) => {
  let bus: EventBus;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (adapter === 'kafka') await requireBackend('kafka');
    const location = await newLocation(adapter);
    cleanup = location.cleanup;
    bus = openBus(location);
  });

  afterAll(async () => {
    await bus.close();
    await cleanup();
  });

  it('continues the publisher’s trace in the consumer, as a child span', async () => {
    const topic = uniqueName('traced');
    await bus.ensureTopics([topic]);
    let seen: { traceId: string; spanId: string } | undefined;
    await bus.subscribe({
      group: 'traced',
      topic,
      schema: z.object({ n: z.number() }),
      handle: async () => {
        seen = trace.getActiveSpan()?.spanContext();
      },
    });
    const publisher = trace.getTracer('test').startSpan('api request');
    await context.with(trace.setSpan(context.active(), publisher), () =>
      bus.publish([{ topic, key: 'k', value: { n: 1 } }]),
    );
    publisher.end();

    await eventually(() => expect(seen).toBeDefined(), 30_000);
    expect(seen?.traceId).toBe(publisher.spanContext().traceId);
    expect(seen?.spanId).not.toBe(publisher.spanContext().spanId);
    const consumerSpan = exporter.getFinishedSpans().find((s) => s.name === `${topic} process`);
    expect(consumerSpan?.parentSpanContext?.spanId).toBe(publisher.spanContext().spanId);
  });
});
