import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, aScope, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { EnvironmentPresenter } from './environment.presenter';
import { ListEnvironmentsUseCase } from './list-environments.usecase';

const config = loadAppConfig({});

describe('ListEnvironmentsUseCase', () => {
  const scope = aScope();
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let accounts: AccountRepository;
  let settings: ProviderSettings;
  let presenter: EnvironmentPresenter;

  beforeEach(async () => {
    const dir = await tempDir('notify-environments-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    accounts = new AccountRepository(store);
    settings = new ProviderSettings(accounts, new SecretBox(randomBytes(32)), config, testLogger());
    presenter = new EnvironmentPresenter(settings);
    await accounts.createAccount({
      accountId: scope.accountId,
      name: 'Acme',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    await accounts.createEnvironment(anEnvironment(), 10);
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });
  it("answers the key's own environment only, as the pingram client names its fields", async () => {
    await accounts.createEnvironment(anEnvironment({ envId: 'env-2', title: 'Staging' }), 10);
    expect(await new ListEnvironmentsUseCase(accounts, presenter).execute(scope)).toEqual([
      {
        clientId: 'env-1',
        clientSecret: 'hmac-secret',
        title: 'Production',
        disableSending: [],
        secureMode: true,
        test: false,
        emailTracking: true,
      },
    ]);
  });

  it('answers nothing for an environment that is gone', async () => {
    expect(await new ListEnvironmentsUseCase(accounts, presenter).execute(aScope({ envId: 'gone' }))).toEqual(
      [],
    );
  });
});
