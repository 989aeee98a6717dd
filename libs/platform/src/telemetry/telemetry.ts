import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';

export interface TelemetryHandle {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing when an OTLP endpoint is configured; otherwise does nothing, so a
 * laptop run pays no cost. Spans cross the bus through message headers (see the bus adapters).
 */
export function startTelemetry(config: {
  otlpEndpoint: string | undefined;
  serviceName: string;
}): TelemetryHandle | undefined {
  if (config.otlpEndpoint === undefined) return undefined;
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${config.otlpEndpoint.replace(/\/$/, '')}/v1/traces` }),
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
