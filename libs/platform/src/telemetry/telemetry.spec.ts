import { startTelemetry } from './telemetry';

describe('startTelemetry', () => {
  it('does nothing without an OTLP endpoint', async () => {
    await expect(startTelemetry({ otlpEndpoint: undefined, serviceName: 'test' })).resolves.toBeUndefined();
  });

  it('loads and starts the SDK when an endpoint is configured, and shuts it down', async () => {
    const handle = await startTelemetry({ otlpEndpoint: 'http://127.0.0.1:9/', serviceName: 'test' });
    expect(handle).toBeDefined();
    await expect(handle?.shutdown()).resolves.toBeUndefined();
  });
});
