import { EmbeddedCoordinationStore, SendingDomainChangesStore } from '@notify/cache';
import { dkimKeyContext } from '@notify/domain';
import { SecretBox } from '@notify/platform';
import { EmbeddedDocumentStore, type SendingDomain, SendingDomainRepository } from '@notify/store';
import { eventually, FakeClock, tempDir, testLogger } from '@notify/testing';
import { join } from 'node:path';
import {
  SENDING_DOMAIN_CACHE_MS,
  SendingDomainKeys,
  UNVERIFIED_DOMAIN_CACHE_MS,
} from './sending-domain-keys';

describe('SendingDomainKeys', () => {
  const scope = { accountId: 'a', envId: 'e' };
  const at = '2026-01-01T00:00:00.000Z';
  let dir: { path: string; remove(): Promise<void> };
  let store: EmbeddedDocumentStore;
  let domains: SendingDomainRepository;
  let clock: FakeClock;
  let keys: SendingDomainKeys;
  let coordination: EmbeddedCoordinationStore;
  let changes: SendingDomainChangesStore;
  const box = new SecretBox(Buffer.alloc(32, 9));
  const domain = (fields: Partial<SendingDomain>): SendingDomain => ({
    domain: 'acme.test',
    selector: 'notifyab',
    publicKey: 'k',
    privateKeySealed: box.seal('PEM', dkimKeyContext(scope, 'acme.test')),
    status: 'SUCCESS',
    pendingSince: at,
    lastSync: at,
    createdAt: at,
    ...fields,
  });

  beforeEach(async () => {
    dir = await tempDir('notify-domain-keys-');
    store = new EmbeddedDocumentStore(join(dir.path, 'store'));
    domains = new SendingDomainRepository(store);
    clock = new FakeClock();
    coordination = new EmbeddedCoordinationStore({
      path: join(dir.path, 'coordination'),
      logger: testLogger(),
    });
    changes = new SendingDomainChangesStore(coordination);
    keys = new SendingDomainKeys(domains, box, changes, clock);
    await keys.onModuleInit();
  });

  afterEach(async () => {
    await coordination.close();
    await store.close();
    await dir.remove();
  });

  it('opens a verified domain’s key, with its return path once that is published', async () => {
    await domains.create(scope, domain({ mailFromStatus: 'SUCCESS' }), 20);
    expect(await keys.of(scope, 'acme.test')).toEqual({
      status: 'SUCCESS',
      signing: {
        dkim: { domainName: 'acme.test', keySelector: 'notifyab', privateKey: 'PEM' },
        envelopeFrom: 'bounces@notify-bounces.acme.test',
      },
    });
    expect(await keys.of({ ...scope, envId: 'other' }, 'acme.test')).toBeUndefined();
  });

  it('signs nothing for a domain not verified, and gives no envelope sender to one without a return path', async () => {
    await domains.create(scope, domain({ status: 'PENDING' }), 20);
    // Without a return path (no INBOUND_MAIL_DOMAIN) a verified domain has no envelope sender of its own.
    await domains.create(
      scope,
      domain({ domain: 'b.test', privateKeySealed: box.seal('B', dkimKeyContext(scope, 'b.test')) }),
      20,
    );
    expect(await keys.of(scope, 'acme.test')).toEqual({ status: 'PENDING' });
    expect((await keys.of(scope, 'b.test'))?.signing).toEqual({
      dkim: { domainName: 'b.test', keySelector: 'notifyab', privateKey: 'B' },
    });
  });

  it('reads the store at most once per domain in SENDING_DOMAIN_CACHE_MS', async () => {
    expect(await keys.of(scope, 'acme.test')).toBeUndefined();
    await domains.create(scope, domain({}), 20);
    clock.advance(SENDING_DOMAIN_CACHE_MS - 1);
    expect(await keys.of(scope, 'acme.test')).toBeUndefined();
    clock.advance(1);
    expect((await keys.of(scope, 'acme.test'))?.status).toBe('SUCCESS');
  });

  it('reads a domain again at once when a change is announced, and a pending one after a moment anyway', async () => {
    await domains.create(scope, domain({ status: 'PENDING' }), 20);
    expect((await keys.of(scope, 'acme.test'))?.status).toBe('PENDING');
    await domains.recordCheck(scope, 'acme.test', at, { status: 'SUCCESS', lastSync: at });
    await changes.announce({ scope, domain: 'acme.test', kind: 'status' });
    await eventually(async () => expect((await keys.of(scope, 'acme.test'))?.status).toBe('SUCCESS'));

    await domains.create(
      scope,
      domain({
        domain: 'b.test',
        status: 'PENDING',
        privateKeySealed: box.seal('B', dkimKeyContext(scope, 'b.test')),
      }),
      20,
    );
    expect((await keys.of(scope, 'b.test'))?.status).toBe('PENDING');
    await domains.recordCheck(scope, 'b.test', at, { status: 'SUCCESS', lastSync: at });
    clock.advance(UNVERIFIED_DOMAIN_CACHE_MS - 1);
    expect((await keys.of(scope, 'b.test'))?.status).toBe('PENDING');
    clock.advance(1);
    expect((await keys.of(scope, 'b.test'))?.status).toBe('SUCCESS');
  });
});
