import { loadAppConfig } from '@notify/platform';
import {
  AccountRepository,
  AutoJoinRepository,
  EmbeddedDocumentStore,
  MembershipRepository,
  PeopleRepository,
} from '@notify/store';
import { aMemberToken, anEnvironment, TEST_JWT_SECRET, tempDir } from '@notify/testing';
import { ForbiddenError, systemClock } from '@notify/util';
import { JwksKeySet } from './jwks.key-set';
import { JwtVerifier } from './jwt.verifier';
import { MemberAuthenticator } from './member.authenticator';

const NOW = '2026-01-01T00:00:00.000Z';

describe('MemberAuthenticator: auto-join', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let store: EmbeddedDocumentStore;
  let authenticator: MemberAuthenticator;
  let memberships: MembershipRepository;
  let people: PeopleRepository;
  let accounts: AccountRepository;

  beforeEach(async () => {
    dir = await tempDir('notify-member-auth-');
    store = new EmbeddedDocumentStore(dir.path);
    const config = loadAppConfig({ JWT_SECRET: TEST_JWT_SECRET });
    people = new PeopleRepository(store);
    memberships = new MembershipRepository(store);
    const autoJoin = new AutoJoinRepository(store);
    accounts = new AccountRepository(store);
    authenticator = new MemberAuthenticator(
      new JwtVerifier(config, systemClock, new JwksKeySet(config, systemClock)),
      people,
      memberships,
      accounts,
      autoJoin,
      systemClock,
    );
    await autoJoin.replace('acct-1', ['corp.example'], NOW);
    await accounts.createAccount({ accountId: 'acct-1', name: 'Corp', createdAt: NOW });
    await accounts.createEnvironment(anEnvironment({ accountId: 'acct-1', envId: 'env-corp' }), 10);
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  const signIn = (email: string, sub = `sub-${email}`) =>
    authenticator.authenticate(aMemberToken({ email, sub }), {});

  it('makes a newcomer of an auto-join domain a member on first sign-in, bound to their subject', async () => {
    const { caller } = await signIn('Frank@Corp.Example');
    expect(caller).toMatchObject({
      kind: 'member',
      accountId: 'acct-1',
      email: 'frank@corp.example',
      role: 'member',
    });
    expect((await people.findBySub('sub-Frank@Corp.Example'))?.userId).toBe(caller.userId);
    expect((await signIn('Frank@Corp.Example')).caller.userId).toBe(caller.userId);
  });

  it('joins a known person of no account, but not someone who already belongs to one', async () => {
    const { person: gina } = await people.findOrCreate('gina@corp.example', NOW);
    expect((await signIn('gina@corp.example')).caller).toMatchObject({
      userId: gina.userId,
      accountId: 'acct-1',
    });
    const { person: hal } = await people.findOrCreate('hal@corp.example', NOW);
    await memberships.add({
      accountId: 'acct-2',
      userId: hal.userId,
      role: 'admin',
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect((await signIn('hal@corp.example')).caller).toMatchObject({ accountId: 'acct-2', role: 'admin' });
    expect(await memberships.get('acct-1', hal.userId)).toBeUndefined();
  });

  it('does not bring back someone removed from the account when they sign in again', async () => {
    const { caller } = await signIn('jo@corp.example');
    await memberships.remove('acct-1', caller.userId);
    await expect(signIn('jo@corp.example')).rejects.toBeInstanceOf(ForbiddenError);
    expect(await memberships.get('acct-1', caller.userId)).toBeUndefined();
  });

  it('joins on a first sign-in that names an environment of the account (?envId=), acting there', async () => {
    const { caller, environment } = await authenticator.authenticate(
      aMemberToken({ email: 'kim@corp.example', sub: 'sub-kim' }),
      { envId: 'env-corp' },
    );
    expect(caller).toMatchObject({ accountId: 'acct-1', role: 'member' });
    expect(environment?.envId).toBe('env-corp');
  });

  it('refuses someone of another domain (403), creating nobody', async () => {
    await expect(signIn('ivy@elsewhere.example')).rejects.toBeInstanceOf(ForbiddenError);
    expect(await people.findByEmail('ivy@elsewhere.example')).toBeUndefined();
  });
});
