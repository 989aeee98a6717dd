import { anApnsKey, anFcmKeyFile, aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { GetPushCredentialUseCase } from './get-push-credential.usecase';
import { PutPushCredentialUseCase } from './put-push-credential.usecase';
import { type PushSettingsHarness, pushSettingsHarness } from './testing/push-settings.harness';

describe('GetPushCredentialUseCase', () => {
  const scope = aScope();
  let t: PushSettingsHarness;

  beforeEach(async () => {
    t = await pushSettingsHarness(scope);
  });

  afterEach(() => t.close());

  it('answers each credential masked, as it was set', async () => {
    const apn = anApnsKey();
    await new PutPushCredentialUseCase(t.settings).execute({
      scope,
      credential: 'fcm',
      input: anFcmKeyFile(),
    });
    await new PutPushCredentialUseCase(t.settings).execute({ scope, credential: 'apn', input: apn });
    const get = new GetPushCredentialUseCase(t.settings);
    const fcm = await get.execute({ scope, credential: 'fcm' });
    expect(JSON.parse(fcm.fcmConfig)).toMatchObject({ project_id: 'my-app-1234' });
    expect(fcm.fcmConfig).not.toContain('BEGIN PRIVATE KEY-----\\nMII');
    const shown = await get.execute({ scope, credential: 'apn' });
    expect(shown).toMatchObject({ KeyId: 'ABC123DEFG', TeamId: 'TEAM123456', Topic: 'com.example.app' });
    expect(shown.Key).not.toBe(apn.Key);
  });

  it('answers 404 naming the credential an environment lacks', async () => {
    const missing = new GetPushCredentialUseCase(t.settings).execute({ scope, credential: 'apn' });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toThrow('This environment has no APNs configuration.');
  });
});
