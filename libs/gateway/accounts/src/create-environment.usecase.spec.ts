import { loadAppConfig } from '@notify/platform';
import { VapidKeyring } from '@notify/providers';
import { ApiKeyRepository } from '@notify/store';
import { aScope, FakeClock } from '@notify/testing';
import { hashApiKey } from '@notify/gateway-auth';
import { InvalidRequestError } from '@notify/util';
import { CreateEnvironmentUseCase } from './create-environment.usecase';
import { KeyIssuer } from './key-issuer';

const config = loadAppConfig({ MAX_ENVIRONMENTS_PER_ACCOUNT: '2' });
import { type EnvironmentsHarness, environmentsHarness } from './testing/environments.harness';

describe('CreateEnvironmentUseCase', () => {
  const scope = aScope();
  const clock = new FakeClock();
  let h: EnvironmentsHarness;

  beforeEach(async () => {
    h = await environmentsHarness(scope, config);
  });

  afterEach(() => h.close());

  const create = (body: { title: string; test?: boolean }) => {
    const keys = new ApiKeyRepository(h.store);
    return new CreateEnvironmentUseCase(
      h.accounts,
      new KeyIssuer(keys, h.accounts, config),
      new VapidKeyring(h.settings),
      h.presenter,
      config,
      clock,
    ).execute({ scope, body });
  };

  it('creates a secure-mode environment with its web push keys, answered with its first key', async () => {
    const created = await create({ title: 'Staging', test: true });
    expect(created).toMatchObject({ title: 'Staging', secureMode: true, test: true, disableSending: [] });
    expect(created.clientId).not.toBe(scope.envId);
    const stored = await h.accounts.getEnvironment(scope.accountId, created.clientId);
    expect(stored?.createdAt).toBe(new Date(clock.now()).toISOString());
    const key = await new ApiKeyRepository(h.store).findByHash(hashApiKey(created.apiKey));
    expect(key).toMatchObject({ envId: created.clientId, name: 'first key' });
    expect(
      await new VapidKeyring(h.settings).keysOf({ accountId: scope.accountId, envId: created.clientId }),
    ).toEqual(expect.objectContaining({ publicKey: expect.any(String) }));
  });

  it('refuses an environment past MAX_ENVIRONMENTS_PER_ACCOUNT with 400 LIMIT_REACHED', async () => {
    await create({ title: 'Second' });
    const third = create({ title: 'Third' });
    await expect(third).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(third).rejects.toMatchObject({ code: 'LIMIT_REACHED' });
    expect(await h.accounts.listEnvironments(scope.accountId)).toHaveLength(2);
  });
});
