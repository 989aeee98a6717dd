import { loadAppConfig } from './app.config';
import { InvalidConfigError } from './config.loader';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadAppConfig(env);
  } catch (error) {
    if (error instanceof InvalidConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('loadAppConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadAppConfig({});
    expect(config.http).toMatchObject({ host: '127.0.0.1', port: 3000 });
    expect(config.bus.driver).toBe('embedded');
    expect(config.store.driver).toBe('embedded');
    expect(config.cache.driver).toBe('embedded');
    expect(config.eventLog.url).toBeUndefined();
    expect(config.telemetry.otlpEndpoint).toBeUndefined();
  });

  it('builds the distributed configuration from the documented variables', () => {
    const config = loadAppConfig({
      PORT: '8080',
      BUS_DRIVER: 'kafka',
      KAFKA_BROKERS: 'kafka-0:9092, kafka-1:9092',
      STORE_DRIVER: 'mongodb',
      MONGODB_URI: 'mongodb://mongo:27017/notify',
      CACHE_DRIVER: 'redis',
      REDIS_URL: 'redis://redis:6379',
      CLICKHOUSE_URL: 'http://clickhouse:8123',
    });
    expect(config.http.port).toBe(8080);
    expect(config.bus).toMatchObject({ driver: 'kafka', brokers: ['kafka-0:9092', 'kafka-1:9092'] });
    expect(config.store).toEqual({ driver: 'mongodb', uri: 'mongodb://mongo:27017/notify' });
    expect(config.cache).toEqual({ driver: 'redis', url: 'redis://redis:6379' });
    expect(config.eventLog.url).toBe('http://clickhouse:8123');
  });

  it('names the variable when a Kafka broker list is malformed', () => {
    const problems = problemsOf({ BUS_DRIVER: 'kafka', KAFKA_BROKERS: 'localhost' });
    expect(problems).toEqual([
      'KAFKA_BROKERS: expected a comma-separated list of host:port (got "localhost")',
    ]);
  });

  it('lists every problem at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      STORE_DRIVER: 'mongodb',
      LOG_LEVEL: 'loud',
      REDIS_URL: 'http://x',
    });
    expect(problems).toHaveLength(4);
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'LOG_LEVEL',
      'MONGODB_URI',
      'PORT',
      'REDIS_URL',
    ]);
    expect(problems.find((p) => p.startsWith('MONGODB_URI'))).toContain('required when STORE_DRIVER=mongodb');
  });

  it('never echoes a secret value back', () => {
    const problems = problemsOf({
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: '',
    });
    expect(problems).toEqual(['KAFKA_SASL_PASSWORD: required when KAFKA_SASL_MECHANISM is set']);
  });
});
