import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, anFcmKeyFile, aScope, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { fcmServiceAccountSetting } from '@notify/domain';
import { ClearPushCredentialUseCase } from './clear-push-credential.usecase';
import { PutPushCredentialUseCase } from './put-push-credential.usecase';

describe('ClearPushCredentialUseCase', () => {
  const scope = aScope();
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let accounts: AccountRepository;
  let settings: ProviderSettings;

  beforeEach(async () => {
    const dir = await tempDir('notify-push-settings-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    accounts = new AccountRepository(store);
    settings = new ProviderSettings(
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
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });
  it('removes the credential, and removing none is no error', async () => {
    await new PutPushCredentialUseCase(settings).execute({ scope, credential: 'fcm', input: anFcmKeyFile() });
    const clear = new ClearPushCredentialUseCase(settings);
    await clear.execute({ scope, credential: 'fcm' });
    expect(await settings.get(scope, fcmServiceAccountSetting)).toBeUndefined();
    await expect(clear.execute({ scope, credential: 'apn' })).resolves.toBeUndefined();
  });
});
