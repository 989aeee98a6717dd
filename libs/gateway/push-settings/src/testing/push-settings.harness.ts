import { EmbeddedCoordinationStore, ProviderSettingsChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings, ProviderSettingsCache } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, FakeClock, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';

/**
 * Provider settings over the embedded document and coordination stores in temporary directories,
 * holding the account of `scope` with one environment, as the push-settings use cases find them.
 */
export async function pushSettingsHarness(scope: TenantScope) {
  const dir = await tempDir('notify-push-settings-');
  const coordinationDir = await tempDir('notify-push-settings-coordination-');
  const store = new EmbeddedDocumentStore(dir.path);
  const coordination = new EmbeddedCoordinationStore({ path: coordinationDir.path, logger: testLogger() });
  const accounts = new AccountRepository(store);
  const settings = new ProviderSettings(
    accounts,
    new SecretBox(randomBytes(32)),
    loadAppConfig({}),
    testLogger(),
    new ProviderSettingsCache(
      accounts,
      new ProviderSettingsChangesStore(coordination),
      new FakeClock(),
      testLogger(),
    ),
  );
  await accounts.createAccount({
    accountId: scope.accountId,
    name: 'Acme',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  await accounts.createEnvironment(anEnvironment(), 10);
  return {
    accounts,
    settings,
    async close() {
      await coordination.close();
      await store.close();
      await dir.remove();
      await coordinationDir.remove();
    },
  };
}

export type PushSettingsHarness = Awaited<ReturnType<typeof pushSettingsHarness>>;
