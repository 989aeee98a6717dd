import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { MessageHeaders } from './event-bus.port';

const tracer = trace.getTracer('notify-bus');

/** Writes the active trace context (W3C traceparent when telemetry is on) into outgoing headers. */
export function injectTraceContext(headers: Record<string, string>): void {
  propagation.inject(context.active(), headers);
}

/**
 * Runs a handler inside a consumer span whose parent is the publisher's span, so one trace
 * follows a notification from the API call through every service. No-ops without telemetry.
 */
export function withConsumerSpan<T>(
  topic: string,
  group: string,
  headers: MessageHeaders,
  work: () => Promise<T>,
): Promise<T> {
  const parent = propagation.extract(context.active(), headers);
  return tracer.startActiveSpan(
    `${topic} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: { 'messaging.destination.name': topic, 'messaging.consumer.group.name': group },
    },
    parent,
    async (span) => {
      try {
        return await work();
      } catch (error) {
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
