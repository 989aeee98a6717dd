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
    expect(config.cache).toEqual({ driver: 'redis', url: 'redis://redis:6379', keyPrefix: 'notify:' });
    expect(config.eventLog.url).toBe('http://clickhouse:8123');
  });

  it('keeps delivery logs LOG_RETENTION_DAYS days, 30 by default, a whole number of days from 1', () => {
    expect(loadAppConfig({}).eventLog.retentionDays).toBe(30);
    expect(loadAppConfig({ LOG_RETENTION_DAYS: '400' }).eventLog.retentionDays).toBe(400);
    for (const bad of ['0', '-3', '1.5', 'forever', '3651'])
      expect(problemsOf({ LOG_RETENTION_DAYS: bad })).toEqual([
        `LOG_RETENTION_DAYS: expected an integer between 1 and 3650 (got "${bad}")`,
      ]);
  });

  it('names the variable when a Kafka broker list is malformed', () => {
    const problems = problemsOf({ BUS_DRIVER: 'kafka', KAFKA_BROKERS: 'localhost' });
    expect(problems).toEqual([
      'KAFKA_BROKERS: expected a comma-separated list of host:port (got "localhost")',
    ]);
  });

  it('pins a JWKS identity provider to an issuer and an audience', () => {
    const problems = problemsOf({ JWT_JWKS_URL: 'https://idp.example.com/jwks' });
    expect(problems).toEqual([
      expect.stringMatching(/^JWT_ISSUER: required.*JWT_JWKS_URL is set/),
      expect.stringMatching(/^JWT_AUDIENCE: required.*JWT_JWKS_URL is set/),
    ]);
    expect(() =>
      loadAppConfig({
        JWT_JWKS_URL: 'https://idp.example.com/jwks',
        JWT_ISSUER: 'https://idp.example.com/',
        JWT_AUDIENCE: 'notify',
      }),
    ).not.toThrow();
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

  it('reads trusted proxies as off, on, a hop count or a list of addresses', () => {
    expect(loadAppConfig({}).http.trustProxy).toBe(false);
    expect(loadAppConfig({ TRUST_PROXY: 'true' }).http.trustProxy).toBe(true);
    expect(loadAppConfig({ TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
    expect(loadAppConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7' }).http.trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
    ]);
    expect(problemsOf({ TRUST_PROXY: 'everyone' })[0]).toMatch(
      /^TRUST_PROXY: expected false, true, a hop count/,
    );
  });

  it('sends HTTPS requests to Twilio through HTTPS_PROXY, else HTTP_PROXY, as the Twilio SDK did', () => {
    expect(loadAppConfig({}).twilio.httpsProxy).toBeUndefined();
    expect(loadAppConfig({ HTTP_PROXY: 'http://proxy.test:3128' }).twilio.httpsProxy).toBe(
      'http://proxy.test:3128',
    );
    expect(
      loadAppConfig({ HTTP_PROXY: 'http://proxy.test:3128', HTTPS_PROXY: 'http://secure.test:3129' }).twilio
        .httpsProxy,
    ).toBe('http://secure.test:3129');
    expect(loadAppConfig({ TWILIO_CA_BUNDLE: '/etc/ca.pem' }).twilio.caBundlePath).toBe('/etc/ca.pem');
    expect(problemsOf({ HTTPS_PROXY: 'proxy.test:3128' })[0]).toMatch(/^HTTPS_PROXY: /);
  });

  it('reads feedback-loop sources as IP addresses and networks, refusing mail domains', () => {
    expect(loadAppConfig({}).inbound.feedbackLoopSources).toEqual([]);
    expect(
      loadAppConfig({ FEEDBACK_LOOP_SOURCES: '192.0.2.25, 198.51.100.0/24,2001:db8::/32' }).inbound
        .feedbackLoopSources,
    ).toEqual(['192.0.2.25', '198.51.100.0/24', '2001:db8::/32']);
    for (const bad of ['fbl.example-isp.com', '192.0.2.0/33', '2001:db8::/129', '192.0.2.1/8/8'])
      expect(problemsOf({ FEEDBACK_LOOP_SOURCES: bad })[0]).toMatch(
        /^FEEDBACK_LOOP_SOURCES: expected IP addresses or networks/,
      );
  });

  it('turns billing on only with a Stripe key, reading its price tiers and channel rates', () => {
    expect(loadAppConfig({}).billing).toEqual({
      stripe: undefined,
      freeMessages: 3_000,
      prices: {},
      channelRates: {},
    });
    const billing = loadAppConfig({
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      BILLING_PRICES: 'price_a=budget_20, price_b=budget_50',
      BILLING_RATES: '{"EMAIL":0.0004,"PUSH":0}',
    }).billing;
    expect(billing.stripe).toEqual({
      secretKey: 'sk_test_123',
      apiUrl: 'http://127.0.0.1:12111',
      webhookSecret: undefined,
    });
    expect(billing.prices).toEqual({ price_a: 'budget_20', price_b: 'budget_50' });
    expect(billing.channelRates).toEqual({ EMAIL: 0.0004, PUSH: 0 });
    expect(problemsOf({ BILLING_PRICES: 'price_a=gold' })[0]).toMatch(/^BILLING_PRICES: expected at most 32/);
    for (const bad of ['{"EMAIL":-1}', '{"email":1}', '[1]', '{', '{"EMAIL":"1"}'])
      expect(problemsOf({ BILLING_RATES: bad })[0]).toMatch(/^BILLING_RATES: expected a JSON object/);
  });

  it('checks SECRETS_KEY and BOOTSTRAP_API_KEY without echoing them', () => {
    const problems = problemsOf({
      SECRETS_KEY: 'dG9vIHNob3J0',
      SECRETS_PREVIOUS_KEYS: 'also-bad',
      BOOTSTRAP_API_KEY: 'my-own-weak-key-1234567890',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'BOOTSTRAP_API_KEY',
      'SECRETS_KEY',
      'SECRETS_PREVIOUS_KEYS',
    ]);
    expect(problems.join('\n')).not.toMatch(/dG9vIHNob3J0|also-bad|my-own-weak-key/);
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadAppConfig({ SECRETS_KEY: key }).secrets.key?.equals(Buffer.alloc(32, 7))).toBe(true);
  });
});
