import { apnsKeySetting, fcmServiceAccountSetting } from '@notify/domain';
import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anApnsKey, anEnvironment, anFcmKeyFile, aScope, tempDir, testLogger } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { InvalidRequestError } from '@notify/util';
import { PutPushCredentialUseCase } from './put-push-credential.usecase';

describe('PutPushCredentialUseCase', () => {
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
  it('stores a valid credential sealed and answers it masked', async () => {
    const apn = anApnsKey();
    const shown = await new PutPushCredentialUseCase(settings).execute({
      scope,
      credential: 'apn',
      input: apn,
    });
    expect(shown.KeyId).toBe('ABC123DEFG');
    expect(shown.Key).not.toBe(apn.Key);
    const stored = JSON.stringify(await accounts.getEnvironmentDocument(scope.accountId, scope.envId));
    expect(stored).not.toContain(apn.Key.split('\n')[1]);
    expect((await settings.get(scope, apnsKeySetting))?.keyId).toBe('ABC123DEFG');
  });

  it('refuses a broken key with 400 and keeps the one set before', async () => {
    const put = new PutPushCredentialUseCase(settings);
    await put.execute({ scope, credential: 'fcm', input: anFcmKeyFile() });
    const broken = put.execute({ scope, credential: 'fcm', input: anFcmKeyFile({ private_key: 'nope' }) });
    await expect(broken).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await settings.get(scope, fcmServiceAccountSetting)).toMatchObject({ projectId: 'my-app-1234' });
  });
});
