import { apnsKeySetting, fcmServiceAccountSetting } from '@notify/domain';
import { anApnsKey, anFcmKeyFile, aScope } from '@notify/testing';
import { InvalidRequestError } from '@notify/util';
import { PutPushCredentialUseCase } from './put-push-credential.usecase';
import { type PushSettingsHarness, pushSettingsHarness } from './testing/push-settings.harness';

describe('PutPushCredentialUseCase', () => {
  const scope = aScope();
  let t: PushSettingsHarness;

  beforeEach(async () => {
    t = await pushSettingsHarness(scope);
  });

  afterEach(() => t.close());

  it('stores a valid credential sealed and answers it masked', async () => {
    const apn = anApnsKey();
    const shown = await new PutPushCredentialUseCase(t.settings).execute({
      scope,
      credential: 'apn',
      input: apn,
    });
    expect(shown.KeyId).toBe('ABC123DEFG');
    expect(shown.Key).not.toBe(apn.Key);
    const stored = JSON.stringify(await t.accounts.getEnvironmentDocument(scope.accountId, scope.envId));
    expect(stored).not.toContain(apn.Key.split('\n')[1]);
    expect((await t.settings.get(scope, apnsKeySetting))?.keyId).toBe('ABC123DEFG');
  });

  it('refuses a broken key with 400 and keeps the one set before', async () => {
    const put = new PutPushCredentialUseCase(t.settings);
    await put.execute({ scope, credential: 'fcm', input: anFcmKeyFile() });
    const broken = put.execute({ scope, credential: 'fcm', input: anFcmKeyFile({ private_key: 'nope' }) });
    await expect(broken).rejects.toBeInstanceOf(InvalidRequestError);
    expect(await t.settings.get(scope, fcmServiceAccountSetting)).toMatchObject({ projectId: 'my-app-1234' });
  });
});
