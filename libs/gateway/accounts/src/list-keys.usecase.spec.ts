import { loadAppConfig } from '@notify/platform';
import { anEnvironment, aScope } from '@notify/testing';
import { ListKeysUseCase } from './list-keys.usecase';
import { type EnvironmentsHarness, environmentsHarness } from './testing/environments.harness';

const config = loadAppConfig({});

describe('ListKeysUseCase', () => {
  const scope = aScope();
  let h: EnvironmentsHarness;

  beforeEach(async () => {
    h = await environmentsHarness(scope, config);
    await h.accounts.createEnvironment(anEnvironment({ envId: 'env-2' }), 10);
  });

  afterEach(() => h.close());

  it("lists one environment's keys, secret and public, masked, with their type and revocation", async () => {
    const secret = await h.issuer.issue(scope, 'server', '2026-01-01T00:00:00.000Z');
    const pub = await h.issuer.issueOfType(scope, 'public', 'browser', '2026-01-02T00:00:00.000Z');
    await h.issuer.issue({ accountId: 'acc-1', envId: 'env-2' }, 'elsewhere', '2026-01-01T00:00:00.000Z');
    await h.keys.revoke(scope, secret.record.keyId, '2026-01-03T00:00:00.000Z');
    expect(await new ListKeysUseCase(h.keys).execute(scope)).toEqual({
      keys: [
        {
          id: secret.record.keyId,
          key: `${secret.key.slice(0, 14)}…`,
          keyType: 'secret',
          name: 'server',
          createdAt: '2026-01-01T00:00:00.000Z',
          environmentId: 'env-1',
          accountId: 'acc-1',
          revoked: true,
        },
        {
          id: pub.record.keyId,
          key: `${pub.key.slice(0, 14)}…`,
          keyType: 'public',
          name: 'browser',
          createdAt: '2026-01-02T00:00:00.000Z',
          environmentId: 'env-1',
          accountId: 'acc-1',
          revoked: false,
        },
      ],
    });
  });

  it('shows a key stored before key types existed as secret', async () => {
    await h.keys.create({
      keyId: 'old',
      accountId: 'acc-1',
      envId: 'env-1',
      keyHash: 'h',
      prefix: 'notify_sk_abcd',
      name: 'legacy',
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    expect((await new ListKeysUseCase(h.keys).execute(scope)).keys).toEqual([
      expect.objectContaining({ id: 'old', keyType: 'secret', key: 'notify_sk_abcd…' }),
    ]);
  });
});
