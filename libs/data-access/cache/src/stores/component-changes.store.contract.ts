import { eventually, requireBackend } from '@notify/testing';
import type { TenantScope } from '@notify/domain';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { ComponentChangesStore } from './component-changes.store';

describe.each(['embedded', 'redis'] as const)('ComponentChangesStore contract (%s)', (adapter) => {
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

  it('tells every listener, on another replica too, which environment changed, until it stops listening', async () => {
    const heard: TenantScope[] = [];
    const stop = await new ComponentChangesStore(listener).listen((scope) => heard.push(scope));
    const changes = new ComponentChangesStore(announcer);
    await changes.announce({ accountId: 'acct', envId: 'env-a' });
    await eventually(() => expect(heard).toEqual([{ accountId: 'acct', envId: 'env-a' }]), 5_000);
    await stop();
    await changes.announce({ accountId: 'acct', envId: 'env-b' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toEqual([{ accountId: 'acct', envId: 'env-a' }]);
  });
});
