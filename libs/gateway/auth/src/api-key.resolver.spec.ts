import { hashApiKey } from './api-key';
import { ApiKeyResolver } from './api-key.resolver';
import { type AuthHarness, authHarness } from './testing/auth.harness';

describe('ApiKeyResolver', () => {
  let h: AuthHarness;

  beforeEach(async () => {
    h = await authHarness();
  });
  afterEach(() => h.close());

  describe('resolveClientSecret (Basic clientId:clientSecret of the older SDKs)', () => {
    it('answers a secret key caller of the environment whose secret it is', async () => {
      expect(await h.resolver.resolveClientSecret('env-1b', 'secret-of-env-1b')).toEqual({
        kind: 'key',
        keyType: 'secret',
        accountId: 'acc-1',
        envId: 'env-1b',
        keyId: 'client-secret',
        test: false,
      });
    });

    it('refuses a wrong secret, of the same length or not, another environment’s, and an unknown client id', async () => {
      for (const [clientId, secret] of [
        ['env-1', 'secret-of-env-X'],
        ['env-1', 'secret-of-env-1-and-more'],
        ['env-1', 'secret'],
        ['env-1', 'secret-of-env-2'],
        ['env-unknown', 'secret-of-env-1'],
        ['env-1', ''],
        ['env-1', 's'.repeat(201)],
        ['e'.repeat(201), 'secret-of-env-1'],
      ])
        expect(await h.resolver.resolveClientSecret(clientId ?? '', secret ?? '')).toBeUndefined();
    });

    it('caches the answer for 30 s, and forgets it when the hash of that secret is evicted', async () => {
      expect(await h.resolver.resolveClientSecret('env-1', 'secret-of-env-1')).toBeDefined();
      await h.accounts.updateEnvironment('acc-1', 'env-1', { secret: 'rotated-secret' });
      h.clock.advance(29_000);
      expect(await h.resolver.resolveClientSecret('env-1', 'secret-of-env-1')).toBeDefined();
      h.clock.advance(1_001);
      expect(await h.resolver.resolveClientSecret('env-1', 'secret-of-env-1')).toBeUndefined();
      expect(await h.resolver.resolveClientSecret('env-1', 'rotated-secret')).toBeDefined();
      await h.accounts.updateEnvironment('acc-1', 'env-1', { secret: 'rotated-again' });
      await h.resolver.revoked(ApiKeyResolver.clientSecretHash('env-1', 'rotated-secret'));
      expect(await h.resolver.resolveClientSecret('env-1', 'rotated-secret')).toBeUndefined();
    });

    it('caches by client id and secret together', () => {
      const hash = ApiKeyResolver.clientSecretHash('env-1', 'secret');
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(ApiKeyResolver.clientSecretHash('env-1s', 'ecret')).not.toBe(hash);
      expect(ApiKeyResolver.clientSecretHash('env-1', 'secret-')).not.toBe(hash);
    });
  });

  describe('resolve (API keys)', () => {
    it('answers the key’s environment and type; refuses a key of the wrong shape or unknown', async () => {
      const key = await h.aKey('env-2');
      const publicKey = await h.aKey('env-1', 'public');
      expect(await h.resolver.resolve(key)).toMatchObject({
        kind: 'key',
        keyType: 'secret',
        accountId: 'acc-2',
        envId: 'env-2',
      });
      expect(await h.resolver.resolve(publicKey)).toMatchObject({ keyType: 'public', envId: 'env-1' });
      expect(await h.resolver.resolve(`${key}x`)).toBeUndefined();
      expect(await h.resolver.resolve(`notify_sk_${'B'.repeat(32)}`)).toBeUndefined();
    });

    it('stops answering a revoked key once its hash is evicted', async () => {
      const key = await h.aKey('env-1');
      const stored = await h.keys.findByHash(hashApiKey(key));
      expect(await h.resolver.resolve(key)).toBeDefined();
      await h.keys.revoke(
        { accountId: 'acc-1', envId: 'env-1' },
        stored?.keyId ?? '',
        '2026-01-02T00:00:00.000Z',
      );
      expect(await h.resolver.resolve(key)).toBeDefined();
      await h.resolver.revoked(hashApiKey(key));
      expect(await h.resolver.resolve(key)).toBeUndefined();
    });
  });
});
