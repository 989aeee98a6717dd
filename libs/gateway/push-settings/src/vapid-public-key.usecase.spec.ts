import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, aScope, tempDir, testLogger } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { VapidKeyring } from '@notify/providers';
import { VapidPublicKeyUseCase } from './vapid-public-key.usecase';

describe('VapidPublicKeyUseCase', () => {
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
  it("answers the environment's VAPID public key, the same every time", async () => {
    const vapid = new VapidPublicKeyUseCase(new VapidKeyring(settings));
    const key = await vapid.execute({ scope, caller: 'server' });
    expect(key).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    expect(await vapid.execute({ scope, caller: 'browser' })).toBe(key);
  });

  it('answers 404 for an environment that does not exist, with the fix for who asked', async () => {
    const vapid = new VapidPublicKeyUseCase(new VapidKeyring(settings));
    const gone = aScope({ envId: 'gone' });
    await expect(vapid.execute({ scope: gone, caller: 'server' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(vapid.execute({ scope: gone, caller: 'server' })).rejects.toMatchObject({
      fix: 'Use a key of an existing environment.',
    });
    await expect(vapid.execute({ scope: gone, caller: 'browser' })).rejects.toMatchObject({
      fix: 'Use an existing environment id.',
    });
  });
});
