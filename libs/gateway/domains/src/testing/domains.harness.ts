import { EmbeddedCoordinationStore, PeriodicTurnsStore, SendingDomainChangesStore } from '@notify/cache';
import { DnsResolver } from '@notify/dns';
import { DnsPeer } from '@notify/local-peer-dns';
import { loadAppConfig, SecretBox } from '@notify/platform';
import { EmbeddedDocumentStore, SendingDomainRepository } from '@notify/store';
import { FakeClock, tempDir, testLogger } from '@notify/testing';
import { join } from 'node:path';
import { AddSendingDomainUseCase } from '../add-sending-domain.usecase';
import { DeleteSendingDomainUseCase } from '../delete-sending-domain.usecase';
import { ListSendingDomainsUseCase } from '../list-sending-domains.usecase';
import { RecheckPendingDomainsUseCase } from '../recheck-pending-domains.usecase';
import { SendingDomainChecker } from '../sending-domain-checker';
import type { SendingDomainView } from '../sending-domain.view';

/**
 * The domains use cases over real adapters for their unit suites: the embedded document and
 * coordination stores in a temp dir, a local DNS peer the resolver port asks, and a fake clock.
 */
export async function domainsHarness() {
  const dir = await tempDir('notify-domains-');
  const store = new EmbeddedDocumentStore(join(dir.path, 'store'));
  const coordination = new EmbeddedCoordinationStore({
    path: join(dir.path, 'coordination'),
    logger: testLogger(),
  });
  const peer = new DnsPeer();
  await peer.start();
  const config = loadAppConfig({
    DNS_SERVERS: peer.server,
    INBOUND_MAIL_DOMAIN: 'inbound.notify.test',
    EMAIL_FROM_ADDRESS: 'notifications@notify.test',
  });
  const clock = new FakeClock();
  const box = new SecretBox(Buffer.alloc(32, 3));
  const repository = new SendingDomainRepository(store);
  const changes = new SendingDomainChangesStore(coordination);
  const resolver = new DnsResolver(config);
  const checker = new SendingDomainChecker(resolver, repository, changes, clock, testLogger());
  const list = new ListSendingDomainsUseCase(repository, checker, config);
  return {
    clock,
    box,
    repository,
    changes,
    checker,
    resolver,
    zone: peer.zone,
    list,
    add: new AddSendingDomainUseCase(repository, checker, list, box, changes, config, clock),
    remove: new DeleteSendingDomainUseCase(repository, changes),
    recheck: new RecheckPendingDomainsUseCase(
      repository,
      checker,
      new PeriodicTurnsStore(coordination),
      clock,
    ),
    /** Loads what a domain lists into the DNS peer (`only` limits it to some purposes). */
    publish(domain: SendingDomainView, only?: readonly string[]) {
      const names = new Map<string, { type: 'TXT' | 'CNAME'; value: string }[]>();
      for (const r of domain.dnsRecords)
        if (only === undefined || only.includes(r.purpose))
          names.set(r.name, [...(names.get(r.name) ?? []), { type: r.type, value: r.value }]);
      for (const [name, records] of names) peer.zone.load(name, records);
    },
    async close() {
      await peer.stop();
      await coordination.close();
      await store.close();
      await dir.remove();
    },
  };
}
export type DomainsHarness = Awaited<ReturnType<typeof domainsHarness>>;
