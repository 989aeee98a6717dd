import {
  ApiKeyRevocationsStore,
  EmbeddedCoordinationStore,
  EnvironmentSettingsChangesStore,
  ProviderSettingsChangesStore,
} from '@notify/cache';
import type { Environment, TenantScope } from '@notify/domain';
import { ApiKeyResolver } from '@notify/gateway-auth';
import { type AppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings, ProviderSettingsCache } from '@notify/provider-settings';
import { AccountRepository, ApiKeyRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, FakeClock, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { EnvironmentPresenter } from '../environment.presenter';
import { KeyIssuer } from '../key-issuer';

/**
 * The account and key repositories, provider settings, environment presenter, key issuer and the
 * key resolver (its revocations over the embedded coordination store) in temporary directories,
 * holding the account of `scope` with one environment.
 */
export async function environmentsHarness(scope: TenantScope, config: AppConfig) {
  const dir = await tempDir('notify-environments-');
  const coordinationDir = await tempDir('notify-environments-coordination-');
  const store = new EmbeddedDocumentStore(dir.path);
  const coordination = new EmbeddedCoordinationStore({ path: coordinationDir.path, logger: testLogger() });
  const clock = new FakeClock();
  const accounts = new AccountRepository(store);
  const keys = new ApiKeyRepository(store);
  const settings = new ProviderSettings(
    accounts,
    new SecretBox(randomBytes(32)),
    config,
    testLogger(),
    new ProviderSettingsCache(accounts, new ProviderSettingsChangesStore(coordination), clock, testLogger()),
  );
  const presenter = new EnvironmentPresenter(settings);
  const revocations = new ApiKeyRevocationsStore(coordination);
  const resolver = new ApiKeyResolver(keys, accounts, revocations, clock);
  await resolver.onModuleInit();
  await accounts.createAccount({
    accountId: scope.accountId,
    name: 'Acme',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  await accounts.createEnvironment(anEnvironment(), 10);
  /** Another environment, of the same account or of a new one. */
  const addEnvironment = async (environment: Partial<Environment>) => {
    const added = anEnvironment(environment);
    await accounts.createAccount({
      accountId: added.accountId,
      name: added.accountId,
      createdAt: added.createdAt,
    });
    if (!(await accounts.createEnvironment(added, 10)))
      throw new Error(`environment ${added.envId} not created`);
  };
  return {
    addEnvironment,
    store,
    accounts,
    keys,
    settings,
    presenter,
    clock,
    revocations,
    resolver,
    environmentChanges: new EnvironmentSettingsChangesStore(coordination),
    issuer: new KeyIssuer(keys, accounts, config),
    async close() {
      await resolver.onModuleDestroy();
      await coordination.close();
      await store.close();
      await dir.remove();
      await coordinationDir.remove();
    },
  };
}

export type EnvironmentsHarness = Awaited<ReturnType<typeof environmentsHarness>>;
