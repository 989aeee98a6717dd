import { DnsZone } from '@notify/local-peer-dns';
import { EmbeddedDocumentStore, SendingDomainRepository } from '@notify/store';
import { tempDir } from '@notify/testing';
import { DevDns } from './dev-dns';

describe('DevDns', () => {
  const mine = { accountId: 'a', envId: 'mine' };
  const theirs = { accountId: 'b', envId: 'theirs' };
  const at = '2026-01-01T00:00:00.000Z';
  const txt = (value: string) => [{ type: 'TXT' as const, value }];
  let dir: { path: string; remove(): Promise<void> };
  let store: EmbeddedDocumentStore;
  let zone: DnsZone;
  let dns: DevDns;

  beforeEach(async () => {
    dir = await tempDir('notify-dev-dns-');
    store = new EmbeddedDocumentStore(dir.path);
    const domains = new SendingDomainRepository(store);
    const domain = {
      domain: 'acme.test',
      selector: 's',
      publicKey: 'k',
      privateKeySealed: 'x',
      status: 'PENDING' as const,
      pendingSince: at,
      lastSync: at,
      createdAt: at,
    };
    await domains.create(mine, domain, 20);
    await domains.create(theirs, domain, 20);
    zone = new DnsZone();
    dns = new DevDns(zone, domains);
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('loads names at or under the environment’s own sending domains only', async () => {
    expect(await dns.load(mine, 's._domainkey.acme.test', txt('v=DKIM1; p=k'))).toEqual(txt('v=DKIM1; p=k'));
    expect(zone.records('s._domainkey.acme.test')).toEqual(txt('v=DKIM1; p=k'));
    await expect(dns.load(mine, 'notacme.test', txt('x'))).rejects.toMatchObject({
      code: 'DOMAIN_NOT_FOUND',
    });
    await expect(dns.records(mine, 'other.test')).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND' });
  });

  it('keeps a name with the environment that loaded it until it loads it empty', async () => {
    await dns.load(mine, 'acme.test', txt('v=spf1 include:_spf.notify.test ~all'));
    await expect(dns.load(theirs, 'acme.test', txt('v=spf1 -all'))).rejects.toMatchObject({
      code: 'DNS_NAME_TAKEN',
    });
    expect(await dns.records(theirs, 'acme.test')).toEqual(txt('v=spf1 include:_spf.notify.test ~all'));
    expect(await dns.load(mine, 'acme.test', [])).toEqual([]);
    expect(await dns.load(theirs, 'acme.test', txt('v=spf1 -all'))).toEqual(txt('v=spf1 -all'));
  });

  it('is 404 where no local DNS peer runs', async () => {
    const without = new DevDns(null, new SendingDomainRepository(store));
    await expect(without.records(mine, 'acme.test')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
