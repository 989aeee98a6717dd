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

  it('gives up on a server that never answers within its bounded time', async () => {
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const quiet = new DnsResolver(configFor(`127.0.0.1:${silent.address().port}`));
    const started = Date.now();
    const answer = await quiet.txt('acme.test');
    silent.close();
    expect(answer).toEqual({ kind: 'error', reason: 'ETIMEOUT' });
    // Two tries of two seconds at most, with c-ares' backoff between them.
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 15_000);
});
