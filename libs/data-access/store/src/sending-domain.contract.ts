import { requireBackend } from '@notify/testing';
import type { DocumentStore } from './document-store.port';
import { type SendingDomain, SendingDomainRepository } from './repositories/sending-domain.repository';
import { newStoreLocation, openStore, type StoreLocation } from './testing/store-harness';

const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-02T00:00:00.000Z';
const mine = { accountId: 'acct', envId: 'env-a' };
const theirs = { accountId: 'acct', envId: 'env-b' };

const aDomain = (domain: string, fields: Partial<SendingDomain> = {}): SendingDomain => ({
  domain,
  selector: 'notify0123456789',
  publicKey: 'MIIB',
  privateKeySealed: 'v1.key.iv.tag.body',
  returnPathTarget: 'inbound.notify.test',
  status: 'PENDING',
  pendingSince: NOW,
  lastSync: NOW,
  createdAt: NOW,
  ...fields,
});

describe.each(['embedded', 'mongodb'] as const)('Sending domains store contract (%s)', (adapter) => {
  let location: StoreLocation;
  let store: DocumentStore;
  let domains: SendingDomainRepository;

  beforeAll(async () => {
    if (adapter === 'mongodb') await requireBackend('mongo');
  });

  beforeEach(async () => {
    location = await newStoreLocation(adapter);
    store = openStore(location);
    domains = new SendingDomainRepository(store);
    await store.ensureIndexes();
  });

  afterEach(async () => {
    await store?.close();
    await location?.cleanup();
  });

  it('keeps each environment’s domains apart, in domain order, up to a limit', async () => {
    expect(await domains.create(mine, aDomain('zeta.test'), 2)).toBe('created');
    expect(await domains.create(mine, aDomain('alpha.test'), 2)).toBe('created');
    expect(await domains.create(mine, aDomain('alpha.test'), 2)).toBe('exists');
    expect(await domains.create(mine, aDomain('third.test'), 2)).toBe('full');
    expect(await domains.create(theirs, aDomain('alpha.test'), 2)).toBe('created');
    expect((await domains.list(mine)).map((d) => d.domain)).toEqual(['alpha.test', 'zeta.test']);
    expect(await domains.get(mine, 'alpha.test')).toEqual(aDomain('alpha.test'));
    expect(await domains.remove(theirs, 'zeta.test')).toBe(false);
    expect(await domains.remove(mine, 'zeta.test')).toBe(true);
    expect(await domains.get(mine, 'zeta.test')).toBeUndefined();
  });

  it('records a check unless the domain started over since, and restarts only a FAILED one', async () => {
    await domains.create(mine, aDomain('acme.test'), 20);
    const failed = {
      status: 'FAILED' as const,
      mailFromStatus: 'FAILED' as const,
      reason: 'wrong key',
      lastSync: LATER,
    };
    expect(await domains.recordCheck(mine, 'acme.test', NOW, failed)).toEqual(aDomain('acme.test', failed));
    expect(await domains.restart(mine, 'acme.test', LATER)).toEqual(
      aDomain('acme.test', {
        status: 'PENDING',
        mailFromStatus: 'FAILED',
        pendingSince: LATER,
        lastSync: LATER,
      }),
    );
    expect(await domains.restart(mine, 'acme.test', LATER)).toBeUndefined();
    // A check that began before the restart looked at the old state: it changes nothing.
    expect(
      await domains.recordCheck(mine, 'acme.test', NOW, { status: 'SUCCESS', lastSync: LATER }),
    ).toBeUndefined();
    expect(
      await domains.recordCheck(mine, 'acme.test', LATER, { status: 'SUCCESS', lastSync: LATER }),
    ).toEqual(aDomain('acme.test', { status: 'SUCCESS', pendingSince: LATER, lastSync: LATER }));
    expect(
      await domains.recordCheck(mine, 'gone.test', NOW, { status: 'SUCCESS', lastSync: LATER }),
    ).toBeUndefined();
  });

  it('lets one check of a pending domain be claimed at a time, and keeps a later check over an earlier one', async () => {
    await domains.create(mine, aDomain('acme.test'), 20);
    const at = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1_000).toISOString();
    expect(await domains.claimCheck(mine, 'acme.test', at(5), 10_000)).toBeUndefined();
    expect(await domains.claimCheck(mine, 'acme.test', at(10), 10_000)).toEqual(
      aDomain('acme.test', { lastSync: at(10) }),
    );
    expect(await domains.claimCheck(mine, 'acme.test', at(15), 10_000)).toBeUndefined();
    expect(await domains.claimCheck(mine, 'acme.test', at(20), 10_000)).toEqual(
      aDomain('acme.test', { lastSync: at(20) }),
    );
    // The check claimed at 10 s ends after the one claimed at 20 s: its older answer is dropped.
    expect(
      await domains.recordCheck(mine, 'acme.test', NOW, { status: 'SUCCESS', lastSync: at(20) }),
    ).toEqual(aDomain('acme.test', { status: 'SUCCESS', lastSync: at(20) }));
    expect(
      await domains.recordCheck(mine, 'acme.test', NOW, { status: 'FAILED', lastSync: at(10) }),
    ).toBeUndefined();
    expect((await domains.get(mine, 'acme.test'))?.status).toBe('SUCCESS');
    // Only a pending domain is claimed.
    expect(await domains.claimCheck(mine, 'acme.test', at(60), 0)).toBeUndefined();
  });

  it('finds one domain in every environment that added it', async () => {
    await domains.create(mine, aDomain('acme.test'), 20);
    await domains.create(theirs, aDomain('acme.test'), 20);
    await domains.create(mine, aDomain('other.test'), 20);
    const found = await domains.everywhere('acme.test', 10);
    expect(found.map((d) => d.envId).sort()).toEqual(['env-a', 'env-b']);
  });

  it('finds the pending domains of every environment, with their scope', async () => {
    await domains.create(mine, aDomain('a.test'), 20);
    await domains.create(theirs, aDomain('b.test'), 20);
    await domains.create(mine, aDomain('c.test', { status: 'SUCCESS' }), 20);
    const pending = await domains.pending(10);
    expect(pending.map((d) => `${d.envId}/${d.domain}`).sort()).toEqual(['env-a/a.test', 'env-b/b.test']);
    expect(await domains.pending(1)).toHaveLength(1);
  });

  it('finds the least recently checked pending domains first, whatever their key order', async () => {
    await domains.create(mine, aDomain('a.test', { lastSync: LATER }), 20);
    await domains.create(mine, aDomain('b.test', { lastSync: NOW }), 20);
    await domains.create(theirs, aDomain('c.test', { lastSync: '2025-12-31T00:00:00.000Z' }), 20);
    expect((await domains.pending(2)).map((d) => d.domain)).toEqual(['c.test', 'b.test']);
  });
});
