import type { Role } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import {
  AccountRepository,
  AutoJoinRepository,
  EmbeddedDocumentStore,
  MembershipRepository,
  PeopleRepository,
} from '@notify/store';
import { aMemberToken, anEnvironment, FakeClock, TEST_JWT_SECRET, tempDir } from '@notify/testing';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@notify/util';
import { JwksKeySet } from './jwks.key-set';
import { JwtVerifier } from './jwt.verifier';
import { MemberAuthenticator } from './member.authenticator';

describe('MemberAuthenticator', () => {
  const clock = new FakeClock();
  let store: EmbeddedDocumentStore;
  let remove: () => Promise<void>;
  let people: PeopleRepository;
  let memberships: MembershipRepository;
  let accounts: AccountRepository;
  let authenticator: MemberAuthenticator;

  beforeEach(async () => {
    const dir = await tempDir('notify-members-auth-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(dir.path);
    people = new PeopleRepository(store);
    memberships = new MembershipRepository(store);
    accounts = new AccountRepository(store);
    const config = loadAppConfig({ JWT_SECRET: TEST_JWT_SECRET });
    authenticator = new MemberAuthenticator(
      new JwtVerifier(config, clock, new JwksKeySet(config, clock)),
      people,
      memberships,
      accounts,
      new AutoJoinRepository(store),
      clock,
    );
    for (const accountId of ['acc-1', 'acc-2', 'acc-3'])
      await accounts.createAccount({ accountId, name: accountId, createdAt: at(0) });
    await accounts.createEnvironment(anEnvironment({ accountId: 'acc-1', envId: 'env-1' }), 10);
    await accounts.createEnvironment(anEnvironment({ accountId: 'acc-2', envId: 'env-2', test: true }), 10);
    await accounts.createEnvironment(anEnvironment({ accountId: 'acc-3', envId: 'env-3' }), 10);
  });

  afterEach(async () => {
    await store.close();
    await remove();
  });

  const at = (minutes: number) =>
    new Date(Date.parse('2026-01-01T00:00:00.000Z') + minutes * 60_000).toISOString();
  const seconds = () => Math.floor(clock.now() / 1000);
  const token = (email: string, sub = `idp|${email}`) =>
    aMemberToken({ email, sub, claims: { iat: seconds(), exp: seconds() + 3_600 } });
  /** A person with memberships, the first one oldest. */
  const member = async (email: string, roles: [accountId: string, role: Role][]) => {
    const { person } = await people.findOrCreate(email, at(0));
    for (const [index, [accountId, role]] of roles.entries())
      await memberships.add({
        accountId,
        userId: person.userId,
        role,
        createdAt: at(index),
        updatedAt: at(index),
      });
    return person;
  };

  it('finds a person by email on their first token and binds its sub; later tokens find them by sub', async () => {
    const ann = await member('ann@example.com', [['acc-1', 'admin']]);
    const first = await authenticator.authenticate(token('Ann@Example.com', 'idp|ann'), {});
    expect(first).toEqual({
      caller: {
        kind: 'member',
        accountId: 'acc-1',
        userId: ann.userId,
        email: 'ann@example.com',
        role: 'admin',
      },
    });
    expect(await people.get(ann.userId)).toMatchObject({ sub: 'idp|ann' });
    // The provider changed her email: the bound sub still names her.
    const later = await authenticator.authenticate(token('ann.new@example.com', 'idp|ann'), {});
    expect(later.caller).toMatchObject({ userId: ann.userId, role: 'admin' });
  });

  it('refuses (403) a token with another sub for an email already bound, and binds nothing', async () => {
    const ann = await member('ann@example.com', [['acc-1', 'owner']]);
    await authenticator.authenticate(token('ann@example.com', 'idp|ann'), {});
    const impostor = authenticator.authenticate(token('ann@example.com', 'other-idp|mallory'), {});
    await expect(impostor).rejects.toBeInstanceOf(ForbiddenError);
    await expect(impostor).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/bound/),
    });
    expect(await people.findBySub('other-idp|mallory')).toBeUndefined();
    expect(await people.get(ann.userId)).toMatchObject({ sub: 'idp|ann' });
  });

  it('refuses (403) an email no person has, and a person with no membership', async () => {
    const stranger = authenticator.authenticate(token('stranger@example.com'), {});
    await expect(stranger).rejects.toMatchObject({ kind: 'forbidden', code: 'FORBIDDEN' });
    expect(await people.findByEmail('stranger@example.com')).toBeUndefined();
    await member('left@example.com', []);
    const left = authenticator.authenticate(token('left@example.com'), {});
    await expect(left).rejects.toBeInstanceOf(ForbiddenError);
    await expect(left).rejects.toMatchObject({ message: 'left@example.com is not a member of any account.' });
  });

  it('finds nobody by an email the identity provider does not vouch for (403), binding nothing', async () => {
    const ann = await member('ann@example.com', [['acc-1', 'owner']]);
    const unvouched = new MemberAuthenticator(
      {
        verify: () =>
          Promise.resolve({ sub: 'other-idp|ann', email: 'ann@example.com', emailTrusted: false }),
      } as unknown as JwtVerifier,
      people,
      memberships,
      accounts,
      new AutoJoinRepository(store),
      clock,
    );
    await expect(unvouched.authenticate('a.b.c', {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await people.get(ann.userId))?.sub).toBeUndefined();
  });

  it('acts in the account of ?envId= and answers that environment, with the role held there', async () => {
    const bob = await member('bob@example.com', [
      ['acc-1', 'member'],
      ['acc-2', 'owner'],
    ]);
    const result = await authenticator.authenticate(token('bob@example.com'), { envId: 'env-2' });
    expect(result.caller).toEqual({
      kind: 'member',
      accountId: 'acc-2',
      userId: bob.userId,
      email: 'bob@example.com',
      role: 'owner',
    });
    expect(result.environment).toMatchObject({ accountId: 'acc-2', envId: 'env-2', test: true });
  });

  it('acts in the account of ?accountId=, else in the first account the person joined', async () => {
    await member('bob@example.com', [
      ['acc-1', 'member'],
      ['acc-2', 'owner'],
    ]);
    const named = await authenticator.authenticate(token('bob@example.com'), { accountId: 'acc-2' });
    expect(named).toEqual({ caller: expect.objectContaining({ accountId: 'acc-2', role: 'owner' }) });
    const first = await authenticator.authenticate(token('bob@example.com'), {});
    expect(first.caller).toMatchObject({ accountId: 'acc-1', role: 'member' });
  });

  it('answers 404 for an environment or account of another account, or none at all', async () => {
    await member('bob@example.com', [['acc-1', 'owner']]);
    for (const context of [
      { envId: 'env-3' },
      { envId: 'env-unknown' },
      { accountId: 'acc-3' },
      { accountId: 'nope' },
    ]) {
      const result = authenticator.authenticate(token('bob@example.com'), context);
      await expect(result).rejects.toBeInstanceOf(NotFoundError);
      await expect(result).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('checks the token before anything else (401)', async () => {
    await member('bob@example.com', [['acc-1', 'owner']]);
    const expired = aMemberToken({ email: 'bob@example.com', claims: { exp: seconds() - 3_600 } });
    await expect(authenticator.authenticate(expired, { envId: 'env-1' })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect((await people.findByEmail('bob@example.com'))?.sub).toBeUndefined();
  });

  it('resolves a console session’s person by userId as a token’s: the account named, or 404, 403, 401', async () => {
    const bob = await member('bob@example.com', [
      ['acc-1', 'member'],
      ['acc-2', 'owner'],
    ]);
    expect(await authenticator.memberOf(bob.userId, {})).toEqual({
      caller: {
        kind: 'member',
        accountId: 'acc-1',
        userId: bob.userId,
        email: 'bob@example.com',
        role: 'member',
      },
    });
    const named = await authenticator.memberOf(bob.userId, { envId: 'env-2' });
    expect(named.caller).toMatchObject({ accountId: 'acc-2', role: 'owner' });
    expect(named.environment).toMatchObject({ envId: 'env-2' });
    await expect(authenticator.memberOf(bob.userId, { envId: 'env-3' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const left = await member('left@example.com', []);
    await expect(authenticator.memberOf(left.userId, {})).rejects.toBeInstanceOf(ForbiddenError);
    await expect(authenticator.memberOf('usr_gone', {})).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
