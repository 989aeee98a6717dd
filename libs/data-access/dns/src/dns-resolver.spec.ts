import { DnsPeer } from '@notify/local-peer-dns';
import { type AppConfig, loadAppConfig } from '@notify/platform';
import { createSocket } from 'node:dgram';
import { DnsResolver } from './dns-resolver';

const configFor = (servers: string): AppConfig => loadAppConfig({ DNS_SERVERS: servers });

describe('DnsResolver', () => {
  let peer: DnsPeer;
  let dns: DnsResolver;

  beforeEach(async () => {
    peer = new DnsPeer();
    await peer.start();
    dns = new DnsResolver(configFor(peer.server));
  });

  afterEach(() => peer.stop());

  it('asks the configured servers: TXT records joined, CNAME targets', async () => {
    peer.zone.load('sel._domainkey.acme.test', [{ type: 'TXT', value: `v=DKIM1; p=${'k'.repeat(300)}` }]);
    peer.zone.load('notify-bounces.acme.test', [{ type: 'CNAME', value: 'inbound.notify.test' }]);
    expect(await dns.txt('sel._domainkey.acme.test')).toEqual({
      kind: 'records',
      values: [`v=DKIM1; p=${'k'.repeat(300)}`],
    });
    expect(await dns.cname('notify-bounces.acme.test')).toEqual({
      kind: 'records',
      values: ['inbound.notify.test'],
    });
  });

  it('tells a name without records (NXDOMAIN, no data) from a lookup that failed', async () => {
    peer.zone.load('acme.test', [{ type: 'MX', value: '10 mx.acme.test' }]);
    expect(await dns.txt('missing.acme.test')).toEqual({ kind: 'none' });
    expect(await dns.txt('acme.test')).toEqual({ kind: 'none' });
  });

  it('answers an error, at once, when no server answers the lookup', async () => {
    // A port just closed on loopback: the datagram is refused, with no timeout to wait out.
    const closed = createSocket('udp4');
    await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
    const port = closed.address().port;
    await new Promise<void>((resolve) => closed.close(resolve));
    const refused = new DnsResolver(configFor(`127.0.0.1:${port}`));
    const started = Date.now();
    expect(await refused.txt('acme.test')).toEqual({
      kind: 'error',
      reason: expect.stringMatching(/^E[A-Z]+$/),
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
