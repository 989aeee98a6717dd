import { ApiKeyRevocationsStore, AuthFailuresStore, EmbeddedCoordinationStore } from '@notify/cache';
import type { ApiKey } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { AccountRepository, ApiKeyRepository, EmbeddedDocumentStore } from '@notify/store';
import { anEnvironment, FakeClock, tempDir, testLogger } from '@notify/testing';
import { hashApiKey, keyPrefix, newApiKey } from './api-key';
import { ApiKeyResolver } from './api-key.resolver';
import { AuthFailureLimiter } from './auth-failure.limiter';
import { EndUserAuthenticator, hashUserId } from './end-user.guard';

describe('EndUserAuthenticator', () => {
  let dirs: { remove: () => Promise<void> }[];
  let store: EmbeddedDocumentStore;
  let coordination: EmbeddedCoordinationStore;
  let keys: ApiKeyRepository;
  let resolver: ApiKeyResolver;
  let authenticator: EndUserAuthenticator;
  const user = { accountId: 'acc-1', envId: 'env-1', userId: 'ann' };
  const hash = hashUserId('hmac-secret', 'ann');

  beforeEach(async () => {
    const [data, coordinationDir] = [await tempDir('notify-end-user-'), await tempDir('notify-end-user-c-')];
    dirs = [data, coordinationDir];
    store = new EmbeddedDocumentStore(data.path);
    coordination = new EmbeddedCoordinationStore({ path: coordinationDir.path, logger: testLogger() });
    const clock = new FakeClock();
    const accounts = new AccountRepository(store);
    keys = new ApiKeyRepository(store);
    resolver = new ApiKeyResolver(keys, accounts, new ApiKeyRevocationsStore(coordination), clock);
    await resolver.onModuleInit();
    const limiter = new AuthFailureLimiter(new AuthFailuresStore(coordination), loadAppConfig({}), clock);
    authenticator = new EndUserAuthenticator(accounts, resolver, limiter);
    await accounts.createAccount({ accountId: 'acc-1', name: 'Acme', createdAt: '2026-01-01T00:00:00.000Z' });
    await accounts.createEnvironment(anEnvironment(), 10);
  });

  afterEach(async () => {
    await resolver.onModuleDestroy();
    await coordination.close();
    await store.close();
    for (const dir of dirs) await dir.remove();
  });

  const aKey = async (keyType: 'secret' | 'public'): Promise<{ key: string; record: ApiKey }> => {
    const key = newApiKey(keyType);
    const record: ApiKey = {
      keyId: `k-${keyType}`,
      accountId: 'acc-1',
      envId: 'env-1',
      keyHash: hashApiKey(key),
      prefix: keyPrefix(key),
      name: keyType,
      createdAt: '2026-01-01T00:00:00.000Z',
      keyType,
    };
    await keys.create(record);
    return { key, record };
  };
  const authenticate = (clientId: string, path: { clientId?: string; userId?: string } = {}, given = hash) =>
    authenticator.authenticate({ clientId, userId: 'ann', hash: given }, '192.0.2.1', path);

  it('knows the environment by its id, as before', async () => {
    expect(await authenticate('env-1', { clientId: 'env-1', userId: 'ann' })).toEqual(user);
  });

  it('lets a public key stand in for the client id, in the credentials and in the path', async () => {
    const { key } = await aKey('public');
    expect(await authenticate(key)).toEqual(user);
    expect(await authenticate(key, { clientId: key, userId: 'ann' })).toEqual(user);
    expect(await authenticate(key, { clientId: 'env-1', userId: 'ann' })).toEqual(user);
    expect(await authenticate(key, { clientId: 'env-2', userId: 'ann' })).toMatch(/do not match/);
  });

  it('still needs the HMAC of the user id in secure mode', async () => {
    const { key } = await aKey('public');
    expect(await authenticate(key, {}, hashUserId('other-secret', 'ann'))).toBe('Invalid hashedUserId.');
    expect(await authenticator.authenticate({ clientId: key, userId: 'ann' }, '192.0.2.1')).toBe(
      'Invalid hashedUserId.',
    );
  });

  it('refuses a revoked public key at once, and a secret key as a client id', async () => {
    const { key, record } = await aKey('public');
    expect(await authenticate(key)).toEqual(user);
    await keys.revoke(user, record.keyId, '2026-01-02T00:00:00.000Z');
    await resolver.revoked(record.keyHash);
    expect(await authenticate(key)).toBe('Unknown or revoked public key.');
    const secret = await aKey('secret');
    expect(await authenticate(secret.key)).toBe('Unknown client id.');
    expect(await authenticate(newApiKey('public'))).toBe('Unknown or revoked public key.');
  });
});
