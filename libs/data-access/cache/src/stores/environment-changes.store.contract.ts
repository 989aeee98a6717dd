import { eventually, requireBackend } from '@notify/testing';
import type { TenantScope } from '@notify/domain';
import type { CoordinationStore } from '../cache.port';
import { newLocation, openStore, type StoreLocation } from '../testing/coordination-harness';
import { ComponentChangesStore } from './component-changes.store';
import type { EnvironmentChangesStore } from './environment-changes.store';
import { EnvironmentSettingsChangesStore } from './environment-settings-changes.store';
import { NotificationTypeChangesStore } from './notification-type-changes.store';
import { ProviderSettingsChangesStore } from './provider-settings-changes.store';
import { WebhookEndpointChangesStore } from './webhook-endpoint-changes.store';

const kinds: [string, (coordination: CoordinationStore) => EnvironmentChangesStore][] = [
  ['WebhookEndpointChangesStore', (coordination) => new WebhookEndpointChangesStore(coordination)],
  ['ComponentChangesStore', (coordination) => new ComponentChangesStore(coordination)],
  ['NotificationTypeChangesStore', (coordination) => new NotificationTypeChangesStore(coordination)],
  ['EnvironmentSettingsChangesStore', (coordination) => new EnvironmentSettingsChangesStore(coordination)],
  ['ProviderSettingsChangesStore', (coordination) => new ProviderSettingsChangesStore(coordination)],
];

describe.each(kinds)('%s contract', (kind, open) => {
  describe.each(['embedded', 'redis'] as const)('(%s)', (adapter) => {
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
      const stop = await open(listener).listen((scope) => heard.push(scope));
      const changes = open(announcer);
      await changes.announce({ accountId: 'acct', envId: 'env-a' });
      await eventually(() => expect(heard).toEqual([{ accountId: 'acct', envId: 'env-a' }]), 5_000);
      await stop();
      await changes.announce({ accountId: 'acct', envId: 'env-b' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard).toEqual([{ accountId: 'acct', envId: 'env-a' }]);
    });

    it('does not tell the listeners of another kind of change', async () => {
      const heard: TenantScope[] = [];
      const other = kinds.find(([name]) => name !== kind)?.[1];
      const stop = await open(listener).listen((scope) => heard.push(scope));
      await other?.(announcer).announce({ accountId: 'acct', envId: 'env-a' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard).toEqual([]);
      await stop();
    });
  });
});
