import { loadAppConfig, SecretBox } from '@notify/platform';
import { ProviderSettings } from '@notify/provider-settings';
import { AccountRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, aScope, tempDir, testLogger } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { randomBytes } from 'node:crypto';
import { EnvironmentPresenter } from './environment.presenter';
import { UpdateEnvironmentUseCase } from './update-environment.usecase';

const config = loadAppConfig({});

describe('UpdateEnvironmentUseCase', () => {
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
  const update = (clientId: string, changes: Parameters<UpdateEnvironmentUseCase['execute']>[0]['changes']) =>
    new UpdateEnvironmentUseCase(accounts, settings, presenter).execute({ scope, clientId, changes });

  it('changes the settings given, keeps the others, and masks a provider setting in the answer', async () => {
    const updated = await update('env-1', {
      title: 'Renamed',
      secureMode: false,
      disableSending: ['SMS'],
      emailTracking: false,
      resetSecret: true,
      smtpUrl: 'smtp://user:hunter2@93.184.215.14:587',
    });
    expect(updated).toMatchObject({
      clientId: 'env-1',
      title: 'Renamed',
      secureMode: false,
      disableSending: ['SMS'],
      emailTracking: false,
      test: false,
    });
    expect(updated.clientSecret).not.toBe('hmac-secret');
    expect(updated.smtpUrl).toBeDefined();
    expect(updated.smtpUrl).not.toContain('hunter2');
    const cleared = await update('env-1', { smtpUrl: null });
    expect(cleared).not.toHaveProperty('smtpUrl');
    expect(cleared.title).toBe('Renamed');
  });

  it('writes no setting when one of them is invalid', async () => {
    await expect(
      update('env-1', { smtpUrl: 'smtp://93.184.215.14:25', twilio: { accountSid: 'not-a-sid' } }),
    ).rejects.toThrow();
    expect((await update('env-1', {})).smtpUrl).toBeUndefined();
  });

  it("answers 404 for another environment than the key's", async () => {
    await accounts.createEnvironment(anEnvironment({ envId: 'env-2' }), 10);
    const other = update('env-2', { title: 'Taken over' });
    await expect(other).rejects.toBeInstanceOf(NotFoundError);
    expect((await accounts.getEnvironment(scope.accountId, 'env-2'))?.title).toBe('Production');
  });
});
