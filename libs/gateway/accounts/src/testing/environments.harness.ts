import type { TenantScope } from '@notify/domain';
import { type AppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { EnvironmentPresenter } from '../environment.presenter';

/**
 * The account repository, provider settings and environment presenter over the embedded document
 * store in a temporary directory, holding the account of `scope` with one environment.
 */
export async function environmentsHarness(scope: TenantScope, config: AppConfig) {
  const dir = await tempDir('notify-environments-');
  const store = new EmbeddedDocumentStore(dir.path);
  const accounts = new AccountRepository(store);
  const settings = new ProviderSettings(accounts, new SecretBox(randomBytes(32)), config, testLogger());
  const presenter = new EnvironmentPresenter(settings);
  await accounts.createAccount({
    accountId: scope.accountId,
    name: 'Acme',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  await accounts.createEnvironment(anEnvironment(), 10);
  return {
    store,
    accounts,
    settings,
    presenter,
    async close() {
      await store.close();
      await dir.remove();
    },
  };
}

export type EnvironmentsHarness = Awaited<ReturnType<typeof environmentsHarness>>;
