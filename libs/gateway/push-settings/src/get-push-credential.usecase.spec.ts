import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anApnsKey, anEnvironment, anFcmKeyFile, aScope, tempDir, testLogger } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { GetPushCredentialUseCase } from './get-push-credential.usecase';
import { PutPushCredentialUseCase } from './put-push-credential.usecase';

describe('GetPushCredentialUseCase', () => {
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
  it('answers each credential masked, as it was set', async () => {
    const apn = anApnsKey();
    await new PutPushCredentialUseCase(settings).execute({ scope, credential: 'fcm', input: anFcmKeyFile() });
    await new PutPushCredentialUseCase(settings).execute({ scope, credential: 'apn', input: apn });
    const get = new GetPushCredentialUseCase(settings);
    const fcm = await get.execute({ scope, credential: 'fcm' });
    expect(JSON.parse(fcm.fcmConfig)).toMatchObject({ project_id: 'my-app-1234' });
    expect(fcm.fcmConfig).not.toContain('BEGIN PRIVATE KEY-----\\nMII');
    const shown = await get.execute({ scope, credential: 'apn' });
    expect(shown).toMatchObject({ KeyId: 'ABC123DEFG', TeamId: 'TEAM123456', Topic: 'com.example.app' });
    expect(shown.Key).not.toBe(apn.Key);
  });

  it('answers 404 naming the credential an environment lacks', async () => {
    const missing = new GetPushCredentialUseCase(settings).execute({ scope, credential: 'apn' });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toThrow('This environment has no APNs configuration.');
  });
});
