import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, aScope, tempDir, testLogger } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { VapidKeyring } from '@notify/providers';
import { WebPushMetadataUseCase } from './web-push-metadata.usecase';

describe('WebPushMetadataUseCase', () => {
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
  it('answers the VAPID key and whether the environment sends web push', async () => {
    const metadata = new WebPushMetadataUseCase(new VapidKeyring(settings), accounts);
    const on = await metadata.execute(scope);
    expect(on).toEqual({ logo: '', environmentVapidPublicKey: expect.any(String), hasWebPushEnabled: true });
    await accounts.updateEnvironment(scope.accountId, scope.envId, { disabledChannels: ['WEB_PUSH'] });
    expect(await metadata.execute(scope)).toEqual({ ...on, hasWebPushEnabled: false });
  });

  it('answers 404 for an environment that does not exist', async () => {
    const metadata = new WebPushMetadataUseCase(new VapidKeyring(settings), accounts);
    await expect(metadata.execute(aScope({ envId: 'gone' }))).rejects.toBeInstanceOf(NotFoundError);
  });
});
