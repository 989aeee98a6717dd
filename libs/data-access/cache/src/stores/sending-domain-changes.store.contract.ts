import { eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { type SendingDomainChange, SendingDomainChangesStore } from './sending-domain-changes.store';

describe.each(['embedded', 'redis'] as const)('SendingDomainChangesStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let announcer: CoordinationStore;
  let listener: CoordinationStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    announcer = openStore(location);
    // Another replica on its own connections; the embedded store serves one process, so it is its own peer.
    listener = adapter === 'embedded' ? announcer : openStore(location);
  });

  afterEach(async () => {
    await announcer.close();
    if (listener !== announcer) await listener.close();
    await location.cleanup();
  });

  it('tells every listener, on another replica too, which domain changed and how, until it stops listening', async () => {
    const heard: SendingDomainChange[] = [];
    const stop = await new SendingDomainChangesStore(listener).listen((change) => heard.push(change));
    const changes = new SendingDomainChangesStore(announcer);
    const first = {
      scope: { accountId: 'acct', envId: 'env-a' },
      domain: 'acme.test',
      kind: 'status' as const,
    };
    await changes.announce(first);
    await eventually(() => expect(heard).toEqual([first]), 5_000);
    await stop();
    await changes.announce({
      scope: { accountId: 'acct', envId: 'env-b' },
      domain: 'acme.test',
      kind: 'deleted',
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toEqual([first]);
  });
});
