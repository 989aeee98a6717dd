import { EmbeddedCoordinationStore, SendingDomainChangesStore } from '@notify/cache';
import { DnsZone } from '@notify/local-peer-dns';
import { EmbeddedDocumentStore, type SendingDomain, SendingDomainRepository } from '@notify/store';
import { eventually, tempDir, testLogger } from '@notify/testing';
import { join } from 'node:path';
import { DEV_DNS_NAMES_PER_ENVIRONMENT, DevDns } from './dev-dns';

describe('DevDns', () => {
  const mine = { accountId: 'a', envId: 'mine' };
  const theirs = { accountId: 'b', envId: 'theirs' };
  const at = '2026-01-01T00:00:00.000Z';
  const later = '2026-01-02T00:00:00.000Z';
  const txt = (value: string) => [{ type: 'TXT' as const, value }];
  const aDomain = (domain: string, createdAt = at): SendingDomain => ({
    domain,
    selector: 's',
    publicKey: 'k',
    privateKeySealed: 'x',
    status: 'PENDING',
    pendingSince: createdAt,
    lastSync: createdAt,
    createdAt,
  });
  let dir: { path: string; remove(): Promise<void> };
  let store: EmbeddedDocumentStore;
  let coordination: EmbeddedCoordinationStore;
  let changes: SendingDomainChangesStore;
  let domains: SendingDomainRepository;
  let zone: DnsZone;
  let dns: DevDns;

  beforeEach(async () => {
    dir = await tempDir('notify-dev-dns-');
    store = new EmbeddedDocumentStore(join(dir.path, 'store'));
    coordination = new EmbeddedCoordinationStore({
      path: join(dir.path, 'coordination'),
      logger: testLogger(),
    });
    changes = new SendingDomainChangesStore(coordination);
    domains = new SendingDomainRepository(store);
    await domains.create(mine, aDomain('acme.test'), 20);
    zone = new DnsZone();
    dns = new DevDns(zone, domains, changes);
    await dns.onModuleInit();
  });

  afterEach(async () => {
    await coordination.close();
    await store.close();
    await dir.remove();
  });

  it('loads names at or under the environment’s own sending domains only', async () => {
    expect(await dns.load(mine, 's._domainkey.acme.test', txt('v=DKIM1; p=k'))).toEqual(txt('v=DKIM1; p=k'));
    expect(zone.records('s._domainkey.acme.test')).toEqual(txt('v=DKIM1; p=k'));
    await expect(dns.load(mine, 'notacme.test', txt('x'))).rejects.toMatchObject({
      code: 'DOMAIN_NOT_FOUND',
      kind: 'not_found',
    });
    await expect(dns.records(mine, 'other.test')).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND' });
  });

  it('gives a name to the environment that first added its domain or a parent, whoever adds it later', async () => {
    await domains.create(mine, aDomain('mail.other.test'), 20);
    await dns.load(mine, 'acme.test', txt('v=spf1 include:_spf.notify.test ~all'));
    // Another environment adds the same domain, a child of it, and a parent of another, later.
    await domains.create(theirs, aDomain('acme.test', later), 20);
    await domains.create(theirs, aDomain('notify-bounces.acme.test', later), 20);
    await domains.create(theirs, aDomain('other.test', later), 20);
    for (const name of [
      'acme.test',
      's._domainkey.acme.test',
      'notify-bounces.acme.test',
      's._domainkey.mail.other.test',
    ]) {
      await expect(dns.load(theirs, name, txt('v=spf1 -all'))).rejects.toMatchObject({
        code: 'DOMAIN_NOT_FOUND',
        kind: 'not_found',
      });
      await expect(dns.records(theirs, name)).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND' });
    }
    expect(zone.records('acme.test')).toEqual(txt('v=spf1 include:_spf.notify.test ~all'));
    // The rest of its parent domain is its own.
    expect(await dns.load(theirs, 'other.test', txt('x'))).toEqual(txt('x'));
  });

  it('clears the names of a deleted domain and hands them to the next environment that added it', async () => {
    await domains.create(theirs, aDomain('acme.test', later), 20);
    await dns.load(mine, 'acme.test', txt('v=spf1 -all'));
    await dns.load(mine, 'x.acme.test', txt('x'));
    await domains.remove(mine, 'acme.test');
    await changes.announce({ scope: mine, domain: 'acme.test', kind: 'deleted' });
    await eventually(() => expect(zone.records('acme.test')).toBeUndefined());
    expect(zone.records('x.acme.test')).toBeUndefined();
    expect(await dns.load(theirs, 'acme.test', txt('v=spf1 ~all'))).toEqual(txt('v=spf1 ~all'));
    await expect(dns.records(mine, 'acme.test')).rejects.toMatchObject({ code: 'DOMAIN_NOT_FOUND' });
  });

  it('holds at most DEV_DNS_NAMES_PER_ENVIRONMENT names of one environment', async () => {
    for (let i = 0; i < DEV_DNS_NAMES_PER_ENVIRONMENT; i++) await dns.load(mine, `n${i}.acme.test`, txt('x'));
    await expect(dns.load(mine, 'one-more.acme.test', txt('x'))).rejects.toMatchObject({
      code: 'LIMIT_REACHED',
    });
    expect(await dns.load(mine, 'n0.acme.test', txt('replaced'))).toEqual(txt('replaced'));
    await dns.load(mine, 'n1.acme.test', []);
    expect(await dns.load(mine, 'one-more.acme.test', txt('x'))).toEqual(txt('x'));
  });

  it('is 404 where no local DNS peer runs', async () => {
    const without = new DevDns(null, domains, changes);
    await expect(without.records(mine, 'acme.test')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
