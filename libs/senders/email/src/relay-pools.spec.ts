import { loadAppConfig } from '@notify/platform';
import { emailConfigProblems, RelayPools } from './relay-pools';

const relay = (host: string) => ({ options: { secure: false, host, port: 25 }, tenant: true });

describe('RelayPools', () => {
  it('keeps one pool per relay, at most SMTP_MAX_RELAYS, closing the least recently used', () => {
    const pools = new RelayPools(loadAppConfig({ SMTP_MAX_RELAYS: '2' }));
    const a = pools.for(relay('a.example.com'));
    const close = jest.spyOn(a, 'close');
    expect(pools.for(relay('a.example.com'))).toBe(a);
    pools.for(relay('b.example.com'));
    pools.for(relay('c.example.com'));
    expect(close).toHaveBeenCalledTimes(1);
    expect(pools.for(relay('a.example.com'))).not.toBe(a);
    pools.onApplicationShutdown();
  });

  it('gives the installation’s relay its one pool on every call', () => {
    const pools = new RelayPools(loadAppConfig({ SMTP_URL: 'smtp://relay.example.com:2525' }));
    const relay = pools.defaultRelay;
    if (relay === undefined) throw new Error('SMTP_URL is set');
    const pool = pools.for(relay);
    expect(pools.for(relay)).toBe(pool);
    expect(pools.for({ ...relay })).toBe(pool);
    expect(pools.for({ ...relay, tenant: true })).not.toBe(pool);
    pools.onApplicationShutdown();
  });

  it("parses the installation's SMTP_URL by the tenants' rules", () => {
    expect(new RelayPools(loadAppConfig({ SMTP_URL: 'smtps://u:p@smtp.example.com' })).defaultRelay).toEqual({
      options: { secure: true, host: 'smtp.example.com', port: 465, username: 'u', password: 'p' },
      tenant: false,
    });
    expect(
      emailConfigProblems(loadAppConfig({ SMTP_URL: 'smtp://relay.example.com/?sendmail=true' })),
    ).toEqual(['SMTP_URL: query options are not accepted']);
  });
});
