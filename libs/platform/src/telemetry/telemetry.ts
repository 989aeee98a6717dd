export interface TelemetryHandle {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing when an OTLP endpoint is configured; otherwise does nothing, so a
 * laptop run pays no cost: not even loading the SDK (about half a second of start-up). Spans cross
 * the bus through message headers (see the bus adapters).
 */
export async function startTelemetry(config: {
  otlpEndpoint: string | undefined;
  serviceName: string;
}): Promise<TelemetryHandle | undefined> {
  if (config.otlpEndpoint === undefined) return undefined;
  const [{ NodeSDK }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${config.otlpEndpoint.replace(/\/$/, '')}/v1/traces` }),
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
