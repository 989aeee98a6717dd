import { anFcmKeyFile, aScope } from '@notify/testing';
import { fcmServiceAccountSetting } from '@notify/domain';
import { ClearPushCredentialUseCase } from './clear-push-credential.usecase';
import { PutPushCredentialUseCase } from './put-push-credential.usecase';
import { type PushSettingsHarness, pushSettingsHarness } from './testing/push-settings.harness';

describe('ClearPushCredentialUseCase', () => {
  const scope = aScope();
  let t: PushSettingsHarness;

  beforeEach(async () => {
    t = await pushSettingsHarness(scope);
  });

  afterEach(() => t.close());

  it('removes the credential, and removing none is no error', async () => {
    await new PutPushCredentialUseCase(t.settings).execute({
      scope,
      credential: 'fcm',
      input: anFcmKeyFile(),
    });
    const clear = new ClearPushCredentialUseCase(t.settings);
    await clear.execute({ scope, credential: 'fcm' });
    expect(await t.settings.get(scope, fcmServiceAccountSetting)).toBeUndefined();
    await expect(clear.execute({ scope, credential: 'apn' })).resolves.toBeUndefined();
  });
});
