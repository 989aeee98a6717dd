import type { TenantScope } from '@notify/domain';
import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';

/**
 * Provider settings over the embedded document store in a temporary directory, holding the account
 * of `scope` with one environment, as the push-settings use cases find them.
 */
export async function pushSettingsHarness(scope: TenantScope) {
  const dir = await tempDir('notify-push-settings-');
  const store = new EmbeddedDocumentStore(dir.path);
  const accounts = new AccountRepository(store);
  const settings = new ProviderSettings(
    accounts,
    new SecretBox(randomBytes(32)),
    loadAppConfig({}),
    testLogger(),
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
      await store.close();
      await dir.remove();
    },
  };
}

export type PushSettingsHarness = Awaited<ReturnType<typeof pushSettingsHarness>>;
