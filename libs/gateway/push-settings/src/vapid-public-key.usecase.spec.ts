import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { VapidKeyring } from '@notify/providers';
import { VapidPublicKeyUseCase } from './vapid-public-key.usecase';
import { type PushSettingsHarness, pushSettingsHarness } from './testing/push-settings.harness';

describe('VapidPublicKeyUseCase', () => {
  const scope = aScope();
  let t: PushSettingsHarness;

  beforeEach(async () => {
    t = await pushSettingsHarness(scope);
  });

  afterEach(() => t.close());

  it("answers the environment's VAPID public key, the same every time", async () => {
    const vapid = new VapidPublicKeyUseCase(new VapidKeyring(t.settings));
    const key = await vapid.execute({ scope, caller: 'server' });
    expect(key).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    expect(await vapid.execute({ scope, caller: 'browser' })).toBe(key);
  });

  it('answers 404 for an environment that does not exist, with the fix for who asked', async () => {
    const vapid = new VapidPublicKeyUseCase(new VapidKeyring(t.settings));
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
