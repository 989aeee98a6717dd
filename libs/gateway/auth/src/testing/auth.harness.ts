import {
  ApiKeyRevocationsStore,
  AuthFailuresStore,
  ConsoleSignInLinksStore,
  EmbeddedCoordinationStore,
} from '@notify/cache';
import type { ApiKeyType, Role } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import {
  AccountRepository,
  AutoJoinRepository,
  ApiKeyRepository,
  EmbeddedDocumentStore,
  MembershipRepository,
  PeopleRepository,
} from '@notify/store';
import {
  aMemberToken,
  anEnvironment,
  FakeClock,
  TEST_JWT_SECRET,
  tempDir,
  testLogger,
} from '@notify/testing';
import { hashApiKey, keyPrefix, newApiKey } from '../api-key';
import { ApiKeyResolver } from '../api-key.resolver';
import { AuthFailureLimiter } from '../auth-failure.limiter';
import { ConsoleSessionTokens } from '../console-session-tokens';
import { JwksKeySet } from '../jwks.key-set';
import { JwtVerifier } from '../jwt.verifier';
import { MemberAuthenticator } from '../member.authenticator';

const CREATED = '2026-01-01T00:00:00.000Z';

/**
 * Everything authentication reads, over the embedded stores in a temporary directory: account
 * acc-1 (environments env-1 and env-1b) and acc-2 (env-2), with helpers that add keys and members.
 * JWT_SECRET is TEST_JWT_SECRET; failed authentications are limited to `authFailures` a minute;
 * `env` adds to (or overrides) the configuration.
 */
export async function authHarness(authFailures = 30, env: Record<string, string> = {}) {
  const dir = await tempDir('notify-auth-');
  const store = new EmbeddedDocumentStore(`${dir.path}/store`);
  const coordination = new EmbeddedCoordinationStore({
    path: `${dir.path}/coordination`,
    logger: testLogger(),
  });
  const clock = new FakeClock();
  const config = loadAppConfig({
    JWT_SECRET: TEST_JWT_SECRET,
    AUTH_FAILURES_PER_MINUTE: String(authFailures),
    ...env,
  });
  const accounts = new AccountRepository(store);
  const keys = new ApiKeyRepository(store);
  const people = new PeopleRepository(store);
  const memberships = new MembershipRepository(store);
  const resolver = new ApiKeyResolver(keys, accounts, new ApiKeyRevocationsStore(coordination), clock);
  const members = new MemberAuthenticator(
    new JwtVerifier(config, clock, new JwksKeySet(config, clock)),
    people,
    memberships,
    accounts,
    new AutoJoinRepository(store),
    clock,
  );
  const failures = new AuthFailureLimiter(new AuthFailuresStore(coordination), config, clock);
  const sessions = new ConsoleSessionTokens(config, clock, new ConsoleSignInLinksStore(coordination));
  for (const accountId of ['acc-1', 'acc-2'])
    await accounts.createAccount({ accountId, name: accountId, createdAt: CREATED });
  for (const [accountId, envId] of [
    ['acc-1', 'env-1'],
    ['acc-1', 'env-1b'],
    ['acc-2', 'env-2'],
  ] as const)
    await accounts.createEnvironment(anEnvironment({ accountId, envId, secret: `secret-of-${envId}` }), 10);
  let keyCount = 0;

  return {
    clock,
    accounts,
    keys,
    resolver,
    members,
    failures,
    sessions,
    config,
    people,
    /** A new key of the environment, stored as the keys controller stores it. */
    async aKey(envId: string, keyType: ApiKeyType = 'secret'): Promise<string> {
      const environment = await accounts.findEnvironment(envId);
      if (environment === undefined) throw new Error(`no environment ${envId}`);
      const key = newApiKey(keyType);
      await keys.create({
        keyId: `key-${++keyCount}`,
        accountId: environment.accountId,
        envId,
        keyHash: hashApiKey(key),
        prefix: keyPrefix(key),
        name: 'test key',
        createdAt: CREATED,
        ...(keyType === 'public' ? { keyType } : {}),
      });
      return key;
    },
    /** A JWT for a new person holding `role` in `accountId`. */
    async aMember(email: string, accountId: string, role: Role): Promise<string> {
      const { person } = await people.findOrCreate(email, CREATED);
      await memberships.add({
        accountId,
        userId: person.userId,
        role,
        createdAt: CREATED,
        updatedAt: CREATED,
      });
      const now = Math.floor(clock.now() / 1000);
      return aMemberToken({ email, claims: { iat: now, exp: now + 3_600 } });
    },
    async close(): Promise<void> {
      await store.close();
      await coordination.close();
      await dir.remove();
    },
  };
}

export type AuthHarness = Awaited<ReturnType<typeof authHarness>>;
