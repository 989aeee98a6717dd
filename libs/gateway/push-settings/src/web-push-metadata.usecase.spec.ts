import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { VapidKeyring } from '@notify/providers';
import { WebPushMetadataUseCase } from './web-push-metadata.usecase';
import { type PushSettingsHarness, pushSettingsHarness } from './testing/push-settings.harness';

describe('WebPushMetadataUseCase', () => {
  const scope = aScope();
  let t: PushSettingsHarness;

  beforeEach(async () => {
    t = await pushSettingsHarness(scope);
  });

  afterEach(() => t.close());

  it('answers the VAPID key and whether the environment sends web push', async () => {
    const metadata = new WebPushMetadataUseCase(new VapidKeyring(t.settings), t.accounts);
    const on = await metadata.execute(scope);
    expect(on).toEqual({ logo: '', environmentVapidPublicKey: expect.any(String), hasWebPushEnabled: true });
    await t.accounts.updateEnvironment(scope.accountId, scope.envId, { disabledChannels: ['WEB_PUSH'] });
    expect(await metadata.execute(scope)).toEqual({ ...on, hasWebPushEnabled: false });
  });

  it('answers 404 for an environment that does not exist', async () => {
    const metadata = new WebPushMetadataUseCase(new VapidKeyring(t.settings), t.accounts);
    await expect(metadata.execute(aScope({ envId: 'gone' }))).rejects.toBeInstanceOf(NotFoundError);
  });
});
