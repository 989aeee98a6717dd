import { eventually, requireBackend } from '@notify/testing';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { WebhookEndpointChangesStore, webhookScopeKey } from './webhook-endpoint-changes.store';

/** What one process announces, every subscriber (in any process) receives. */
describe.each(['embedded', 'redis'] as const)('WebhookEndpointChangesStore contract (%s)', (adapter) => {
  let location: StoreLocation;
  let coordination: CoordinationStore;
  let other: CoordinationStore;

  beforeAll(async () => {
    if (adapter === 'redis') await requireBackend('redis');
  });

  beforeEach(async () => {
    location = await newLocation(adapter);
    coordination = openStore(location);
    // Another replica on its own connections; the embedded store serves one process, so it is its own peer.
    other = adapter === 'embedded' ? coordination : openStore(location);
  });

  afterEach(async () => {
    if (other !== coordination) await other.close();
    await coordination.close();
    await location.cleanup();
  });

  it('tells every dispatcher which environment changed, by its cache key', async () => {
    const heard: string[] = [];
    await new WebhookEndpointChangesStore(other).subscribe((scopeKey) => heard.push(scopeKey));
    const changes = new WebhookEndpointChangesStore(coordination);
    await changes.announce({ accountId: 'acct', envId: 'env-a' });
    await changes.announce({ accountId: 'acct', envId: 'env-b' });
    await eventually(() => expect(heard).toEqual(['acct/env-a', 'acct/env-b']));
    expect(heard).toEqual([webhookScopeKey({ accountId: 'acct', envId: 'env-a' }), 'acct/env-b']);
  });
});
