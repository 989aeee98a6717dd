import { loadAppConfig } from '@notify/platform';
import { aScope, eventually } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { RevokeKeyUseCase } from './revoke-key.usecase';
import { type EnvironmentsHarness, environmentsHarness } from './testing/environments.harness';

const config = loadAppConfig({ MAX_KEYS_PER_ENVIRONMENT: '1' });

describe('RevokeKeyUseCase', () => {
  const scope = aScope();
  const env2 = { accountId: 'acc-1', envId: 'env-2' };
  let h: EnvironmentsHarness;

  beforeEach(async () => {
    h = await environmentsHarness(scope, config);
    await h.addEnvironment({ envId: 'env-2' });
    await h.addEnvironment({ accountId: 'acc-2', envId: 'env-9' });
  });

  afterEach(() => h.close());

  const revoke = (reach: { accountId: string; envId?: string }, keyId: string) =>
    new RevokeKeyUseCase(h.keys, h.accounts, h.resolver, h.clock).execute({ reach, keyId });

  it('lets a member revoke any key of the account by id: it stops at once and its slot is free again', async () => {
    const announced: string[] = [];
    const unsubscribe = await h.revocations.subscribe((hash) => announced.push(hash));
    try {
      const { record, key } = await h.issuer.issueOfType(env2, 'public', 'web', '2026-01-01T00:00:00.000Z');
      expect(await h.resolver.resolve(key)).toMatchObject({ envId: 'env-2' });
      await revoke({ accountId: 'acc-1' }, record.keyId);
      expect(await h.resolver.resolve(key)).toBeUndefined();
      expect((await h.keys.findByHash(record.keyHash))?.revokedAt).toBe(
        new Date(h.clock.now()).toISOString(),
      );
      await eventually(() => expect(announced).toEqual([record.keyHash]));
      // MAX_KEYS_PER_ENVIRONMENT is 1: the revoked key gave env-2 its slot back.
      await h.issuer.issue(env2, 'again', '2026-01-02T00:00:00.000Z');
      // Revoked already: not found.
      await expect(revoke({ accountId: 'acc-1' }, record.keyId)).rejects.toBeInstanceOf(NotFoundError);
    } finally {
      await unsubscribe();
    }
  });

  it("refuses another account's key to a member, and another environment's to a key (404)", async () => {
    const other = await h.issuer.issue(
      { accountId: 'acc-2', envId: 'env-9' },
      'theirs',
      '2026-01-01T00:00:00.000Z',
    );
    const sibling = await h.issuer.issue(env2, 'sibling', '2026-01-01T00:00:00.000Z');
    await expect(revoke({ accountId: 'acc-1' }, other.record.keyId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(revoke(scope, sibling.record.keyId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(revoke({ accountId: 'acc-1' }, 'unknown')).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.resolver.resolve(other.key)).toMatchObject({ envId: 'env-9' });
    expect(await h.resolver.resolve(sibling.key)).toMatchObject({ envId: 'env-2' });
  });

  it('lets a key revoke a key of its own environment, as before', async () => {
    const own = await h.issuer.issue(scope, 'own', '2026-01-01T00:00:00.000Z');
    await revoke(scope, own.record.keyId);
    expect(await h.resolver.resolve(own.key)).toBeUndefined();
  });
});
