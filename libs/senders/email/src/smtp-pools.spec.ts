import { loadAppConfig, ReadinessRegistry } from '@notify/platform';
import { testLogger } from '@notify/testing';
import { emailConfigProblems, RelayPools } from './relay-pools';
import { relayKey, SmtpPools } from './smtp-pools';

const relay = (host: string) => ({ options: { secure: false, host, port: 25 }, tenant: true });
const settings = (maxRelays: number) => ({
  poolSize: 2,
  maxRelays,
  egress: { allowPrivateNetworks: false },
});

describe('SmtpPools', () => {
  it('keeps one pool per relay, at most SMTP_MAX_RELAYS, closing the least recently used', () => {
    const pools = new SmtpPools(settings(2));
    const a = pools.for(relay('a.example.com'));
    const close = jest.spyOn(a, 'close');
    expect(pools.for(relay('a.example.com'))).toBe(a);
    pools.for(relay('b.example.com'));
    pools.for(relay('c.example.com'));
    expect(close).toHaveBeenCalledTimes(1);
    expect(pools.for(relay('a.example.com'))).not.toBe(a);
    pools.close();
  });

  it('keys a pool by everything it is built from', () => {
    const trusted = { options: { secure: false, host: 'relay.example.com', port: 2525 }, tenant: false };
    const pools = new SmtpPools(settings(10));
    const pool = pools.for(trusted);
    expect(pools.for({ ...trusted })).toBe(pool);
    expect(pools.for(trusted, relayKey({ ...trusted }))).toBe(pool);
    expect(pools.for({ ...trusted, tenant: true })).not.toBe(pool);
    expect(pools.for({ ...trusted, options: { ...trusted.options, port: 2526 } })).not.toBe(pool);
    pools.close();
  });
});

describe('RelayPools', () => {
  it("parses the installation's SMTP_URL by the tenants' rules", async () => {
    const readiness = new ReadinessRegistry();
    const pools = new RelayPools(
      loadAppConfig({ SMTP_URL: 'smtps://u:p@smtp.example.com' }),
      testLogger(),
      readiness,
    );
    // Unset EMAIL_SEND_THREADS: SMTP on the sender's own thread, nothing more to be ready.
    await pools.onModuleInit();
    expect(readiness.all()).toEqual([]);
    expect(pools.defaultRelay).toEqual({
      options: { secure: true, host: 'smtp.example.com', port: 465, username: 'u', password: 'p' },
      tenant: false,
    });
    await pools.onApplicationShutdown();
    expect(
      emailConfigProblems(loadAppConfig({ SMTP_URL: 'smtp://relay.example.com/?sendmail=true' })),
    ).toEqual(['SMTP_URL: query options are not accepted']);
  });
});
