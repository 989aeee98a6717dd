import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { VapidKeyring } from '@notify/providers';
import { AccountRepository, ApiKeyRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, aScope, FakeClock, tempDir, testLogger } from '@notify/testing';
import { hashApiKey } from '@notify/gateway-auth';
import { InvalidRequestError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { CreateEnvironmentUseCase } from './create-environment.usecase';
import { EnvironmentPresenter } from './environment.presenter';
import { KeyIssuer } from './key-issuer';

const config = loadAppConfig({ MAX_ENVIRONMENTS_PER_ACCOUNT: '2' });

describe('CreateEnvironmentUseCase', () => {
  const scope = aScope();
  const clock = new FakeClock();
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
  const create = (body: { title: string; test?: boolean }) => {
    const keys = new ApiKeyRepository(store);
    return new CreateEnvironmentUseCase(
      accounts,
      new KeyIssuer(keys, accounts, config),
      new VapidKeyring(settings),
      presenter,
      config,
      clock,
    ).execute({ scope, body });
  };

  it('creates a secure-mode environment with its web push keys, answered with its first key', async () => {
    const created = await create({ title: 'Staging', test: true });
    expect(created).toMatchObject({ title: 'Staging', secureMode: true, test: true, disableSending: [] });
    expect(created.clientId).not.toBe(scope.envId);
    const stored = await accounts.getEnvironment(scope.accountId, created.clientId);
    expect(stored?.createdAt).toBe(new Date(clock.now()).toISOString());
    const key = await new ApiKeyRepository(store).findByHash(hashApiKey(created.apiKey));
    expect(key).toMatchObject({ envId: created.clientId, name: 'first key' });
    expect(
      await new VapidKeyring(settings).keysOf({ accountId: scope.accountId, envId: created.clientId }),
    ).toEqual(expect.objectContaining({ publicKey: expect.any(String) }));
  });

  it('refuses an environment past MAX_ENVIRONMENTS_PER_ACCOUNT with 400 LIMIT_REACHED', async () => {
    await create({ title: 'Second' });
    const third = create({ title: 'Third' });
    await expect(third).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(third).rejects.toMatchObject({ code: 'LIMIT_REACHED' });
    expect(await accounts.listEnvironments(scope.accountId)).toHaveLength(2);
  });
});
