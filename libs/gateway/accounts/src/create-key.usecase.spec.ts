import { hashApiKey, isPublicKeyShaped } from '@notify/gateway-auth';
import { loadAppConfig } from '@notify/platform';
import { aScope } from '@notify/testing';
import { InvalidRequestError, NotFoundError } from '@notify/util';
import { CreateKeyUseCase } from './create-key.usecase';
import { type EnvironmentsHarness, environmentsHarness } from './testing/environments.harness';

const config = loadAppConfig({ MAX_KEYS_PER_ENVIRONMENT: '2' });

describe('CreateKeyUseCase', () => {
  const scope = aScope();
  let h: EnvironmentsHarness;

  beforeEach(async () => {
    h = await environmentsHarness(scope, config);
    await h.addEnvironment({ envId: 'env-2' });
    await h.addEnvironment({ accountId: 'acc-2', envId: 'env-9' });
  });

  afterEach(() => h.close());

  const create = (command: Parameters<CreateKeyUseCase['execute']>[0]) =>
    new CreateKeyUseCase(h.accounts, h.issuer, h.clock).execute(command);
  const member = { accountId: 'acc-1' };

  it("creates a key's key in its own environment, and refuses another environment (404)", async () => {
    const created = await create({ reach: scope, keyType: 'secret', name: 'ci' });
    expect(created).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^notify_sk_/),
      keyType: 'secret',
      name: 'ci',
      createdAt: new Date(h.clock.now()).toISOString(),
      environmentId: 'env-1',
    });
    expect(await h.keys.findByHash(hashApiKey(created.key))).toMatchObject({
      envId: 'env-1',
      keyType: 'secret',
    });
    await expect(
      create({ reach: scope, environmentId: 'env-2', keyType: 'secret', name: 'x' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.keys.list({ accountId: 'acc-1', envId: 'env-2' })).toEqual([]);
  });

  it('creates a public key, stored as public, that the resolver knows as one', async () => {
    const created = await create({ reach: member, environmentId: 'env-2', keyType: 'public', name: 'web' });
    expect(created).toMatchObject({ keyType: 'public', environmentId: 'env-2' });
    expect(isPublicKeyShaped(created.key)).toBe(true);
    expect(await h.resolver.resolve(created.key)).toMatchObject({
      kind: 'key',
      keyType: 'public',
      accountId: 'acc-1',
      envId: 'env-2',
    });
  });

  it('needs a member to name an environment of the account (400 MISSING_ENV_ID, else 404)', async () => {
    const missing = create({ reach: member, keyType: 'secret', name: 'x' });
    await expect(missing).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(missing).rejects.toMatchObject({ code: 'MISSING_ENV_ID' });
    for (const environmentId of ['env-9', 'unknown'])
      await expect(
        create({ reach: member, environmentId, keyType: 'secret', name: 'x' }),
      ).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.keys.list({ accountId: 'acc-2', envId: 'env-9' })).toEqual([]);
  });

  it("counts the key against its own environment's MAX_KEYS_PER_ENVIRONMENT, public keys too", async () => {
    await create({ reach: member, environmentId: 'env-2', keyType: 'public', name: 'a' });
    await create({ reach: member, environmentId: 'env-2', keyType: 'secret', name: 'b' });
    await expect(
      create({ reach: member, environmentId: 'env-2', keyType: 'secret', name: 'c' }),
    ).rejects.toMatchObject({ code: 'LIMIT_REACHED' });
    // The other environment's slots are its own.
    await create({ reach: member, environmentId: 'env-1', keyType: 'secret', name: 'd' });
    expect((await h.keys.list({ accountId: 'acc-1', envId: 'env-1' })).map((k) => k.name)).toEqual(['d']);
  });
});
