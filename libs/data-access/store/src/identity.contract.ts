import type { Role } from '@notify/domain';
import { requireBackend } from '@notify/testing';
import { Collections, type MembershipDoc } from './collections';
import type { CollectionDefinition, Doc, DocumentStore } from './document-store.port';
import { AccountRepository } from './repositories/account.repository';
import { AutoJoinRepository } from './repositories/auto-join.repository';
import { InvitationRepository } from './repositories/invitation.repository';
import { MembershipRepository } from './repositories/membership.repository';
import { PeopleRepository } from './repositories/people.repository';
import { newStoreLocation, openStore, type StoreLocation } from './testing/store-harness';

const NOW = '2026-01-01T00:00:00.000Z';
const member = (accountId: string, userId: string, role: Role): MembershipDoc => ({
  accountId,
  userId,
  role,
  createdAt: NOW,
  updatedAt: NOW,
});

describe.each(['embedded', 'mongodb'] as const)('Identity stores contract (%s)', (adapter) => {
  let location: StoreLocation;
  let store: DocumentStore;
  let memberships: MembershipRepository;
  let accounts: AccountRepository;
  let invitations: InvitationRepository;
  let autoJoin: AutoJoinRepository;
  let people: PeopleRepository;

  beforeAll(async () => {
    if (adapter === 'mongodb') await requireBackend('mongo');
  });

  beforeEach(async () => {
    location = await newStoreLocation(adapter);
    store = openStore(location);
    memberships = new MembershipRepository(store);
    accounts = new AccountRepository(store);
    invitations = new InvitationRepository(store);
    autoJoin = new AutoJoinRepository(store);
    people = new PeopleRepository(store);
    // Indexes are made for the collections repositories opened (as the service does at start).
    await store.ensureIndexes();
    await accounts.createAccount({ accountId: 'acct-1', name: 'One', createdAt: NOW });
  });

  afterEach(async () => {
    await store?.close();
    await location?.cleanup();
  });

  it('removes a document only while the condition holds for it as stored', async () => {
    const collection = store.collection(Collections.memberships);
    await collection.insert(member('acct-1', 'u1', 'admin'));
    expect(await collection.remove(['acct-1', 'u1'], (m) => m.role === 'owner')).toBe(false);
    expect(await collection.get(['acct-1', 'u1'])).toBeDefined();
    expect(await collection.remove(['acct-1', 'u1'], (m) => m.role === 'admin')).toBe(true);
    expect(await collection.remove(['acct-1', 'u1'], () => true)).toBe(false);
  });

  it('changes roles and removes members, but never the last owner', async () => {
    await memberships.add(member('acct-1', 'u1', 'owner'));
    await memberships.add(member('acct-1', 'u2', 'member'));
    expect(await memberships.changeRole('acct-1', 'u1', 'admin', NOW)).toBe('last_owner');
    expect(await memberships.remove('acct-1', 'u1')).toBe('last_owner');
    expect(await memberships.changeRole('acct-1', 'u2', 'owner', NOW)).toBe('done');
    expect(await memberships.remove('acct-1', 'u2', { owners: false })).toBe('owner');
    expect(await memberships.changeRole('acct-1', 'u1', 'admin', NOW)).toBe('done');
    expect(await memberships.remove('acct-1', 'u2')).toBe('last_owner');
    expect(await memberships.remove('acct-1', 'u1')).toBe('done');
    expect(await memberships.remove('acct-1', 'u1')).toBe('not_found');
    expect(await memberships.changeRole('acct-1', 'nobody', 'admin', NOW)).toBe('not_found');
    expect((await memberships.listByAccount('acct-1')).map((m) => [m.userId, m.role])).toEqual([
      ['u2', 'owner'],
    ]);
  });

  it('keeps one owner whatever concurrent demotions and removals of the owners race', async () => {
    await Promise.all(['o1', 'o2', 'o3'].map((id) => memberships.add(member('acct-1', id, 'owner'))));
    const outcomes = await Promise.all([
      memberships.changeRole('acct-1', 'o1', 'member', NOW),
      memberships.remove('acct-1', 'o2'),
      memberships.remove('acct-1', 'o3'),
      memberships.changeRole('acct-1', 'o3', 'admin', NOW),
      memberships.remove('acct-1', 'o1'),
    ]);
    // At least one owner stays. A change can also be refused while another one's reservation is
    // in flight and later given back, so more than one may stay; the count then matches them.
    const owners = (await memberships.listByAccount('acct-1')).filter((m) => m.role === 'owner');
    expect(owners.length).toBeGreaterThanOrEqual(1);
    expect(outcomes).toContain('last_owner');
    expect((await accounts.getAccount('acct-1'))?.ownerCount).toBe(owners.length);
  });

  it('counts no owner on an account whose owners were never counted (memberships began with the count)', async () => {
    const collection = store.collection(Collections.memberships);
    await collection.insert(member('acct-1', 'u1', 'owner'));
    await collection.insert(member('acct-1', 'u2', 'owner'));
    expect(await memberships.remove('acct-1', 'u1')).toBe('last_owner');
    expect(await memberships.changeRole('acct-1', 'u2', 'member', NOW)).toBe('last_owner');
    expect((await accounts.getAccount('acct-1'))?.ownerCount).toBeUndefined();
    await memberships.add(member('acct-1', 'u3', 'owner'));
    await memberships.changeRole('acct-1', 'u1', 'member', NOW);
    expect((await accounts.getAccount('acct-1'))?.ownerCount).toBe(1);
  });

  it('gives the owner reservation back when the membership write fails', async () => {
    await memberships.add(member('acct-1', 'o1', 'owner'));
    await memberships.add(member('acct-1', 'o2', 'owner'));
    // A repository whose membership writes fail, as when the store goes away mid-change.
    const failing = (operation: 'modify' | 'remove') =>
      new MembershipRepository({
        collection: (definition: CollectionDefinition<Doc>) => {
          const collection = store.collection(definition);
          if (definition.name === Collections.memberships.name)
            Object.assign(collection, { [operation]: () => Promise.reject(new Error('store down')) });
          return collection;
        },
      } as unknown as DocumentStore);
    await expect(failing('modify').changeRole('acct-1', 'o1', 'member', NOW)).rejects.toThrow('store down');
    await expect(failing('remove').remove('acct-1', 'o1')).rejects.toThrow('store down');
    expect((await accounts.getAccount('acct-1'))?.ownerCount).toBe(2);
    expect(await memberships.changeRole('acct-1', 'o1', 'member', NOW)).toBe('done');
  });

  it('finishes a person whose email was claimed but whose record was never written', async () => {
    const claims = store.collection(Collections.personEmails);
    await claims.insert({ email: 'ann@example.com', userId: 'usr_half' });
    expect(await people.findByEmail('ann@example.com')).toBeUndefined();
    const [first, second] = await Promise.all([
      people.findOrCreate('Ann@Example.com', NOW),
      people.findOrCreate('ann@example.com', NOW),
    ]);
    expect([first.person.userId, second.person.userId]).toEqual(['usr_half', 'usr_half']);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(await people.findByEmail('ann@example.com')).toEqual({
      userId: 'usr_half',
      email: 'ann@example.com',
      createdAt: NOW,
    });
  });

  it('creates one person for concurrent first sign-ins', async () => {
    const created = await Promise.all([1, 2, 3].map(() => people.findOrCreate('bob@example.com', NOW)));
    expect(new Set(created.map((c) => c.person.userId)).size).toBe(1);
    expect(created.filter((c) => c.created)).toHaveLength(1);
  });

  it('leaves no address unusable when an email change died half-way', async () => {
    const { person: ann } = await people.findOrCreate('ann@example.com', NOW);
    const { person: bob } = await people.findOrCreate('bob@example.com', NOW);
    const claims = store.collection(Collections.personEmails);
    // Died after claiming the new address, before moving the record: a retry completes the move.
    await claims.insert({ email: 'ann@new.example', userId: ann.userId });
    expect(await people.findByEmail('ann@new.example')).toBeUndefined();
    expect(await people.changeEmail(ann.userId, 'ann@new.example')).toBe(true);
    expect((await people.get(ann.userId))?.email).toBe('ann@new.example');
    expect(await people.findByEmail('ann@example.com')).toBeUndefined();
    // Died after moving the record, before dropping the old claim: the old address is free.
    await claims.insert({ email: 'bob@old.example', userId: bob.userId });
    expect(await people.changeEmail(ann.userId, 'bob@old.example')).toBe(true);
    expect(await people.findByEmail('bob@old.example')).toMatchObject({ userId: ann.userId });
    await claims.insert({ email: 'stale@example.com', userId: bob.userId });
    const { person: carol, created } = await people.findOrCreate('stale@example.com', NOW);
    expect(created).toBe(true);
    expect(carol.userId).not.toBe(bob.userId);
    expect(await people.findByEmail('stale@example.com')).toEqual(carol);
    // Someone's live address stays theirs.
    expect(await people.changeEmail(ann.userId, 'bob@example.com')).toBe(false);
    expect(await people.findByEmail('bob@example.com')).toEqual(bob);
  });

  it('redeems an invitation once, and never a replaced one', async () => {
    const invitation = {
      accountId: 'acct-1',
      email: 'Ann@Example.com',
      role: 'admin' as const,
      tokenHash: 'h1',
      invitedBy: 'u1',
      createdAt: NOW,
      expiresAt: NOW,
    };
    await invitations.invite(invitation);
    await invitations.invite({ ...invitation, tokenHash: 'h2' });
    expect(await invitations.redeemInvitation('acct-1', 'ann@example.com', 'h1')).toBeUndefined();
    const redeemed = await Promise.all([
      invitations.redeemInvitation('acct-1', 'ann@example.com', 'h2'),
      invitations.redeemInvitation('acct-1', 'ann@example.com', 'h2'),
    ]);
    expect(redeemed.filter((r) => r !== undefined)).toEqual([
      { ...invitation, email: 'ann@example.com', tokenHash: 'h2' },
    ]);
    expect(await invitations.redeemInvitation('acct-1', 'ann@example.com', 'h2')).toBeUndefined();

    await invitations.requestEmailChange({
      userId: 'u1',
      newEmail: 'New@Example.com',
      tokenHash: 'e1',
      createdAt: NOW,
      expiresAt: NOW,
    });
    expect(await invitations.redeemEmailChange('u1', 'e0')).toBeUndefined();
    expect((await invitations.redeemEmailChange('u1', 'e1'))?.newEmail).toBe('new@example.com');
    expect(await invitations.redeemEmailChange('u1', 'e1')).toBeUndefined();
  });

  it("revokes the pending invitations one inviter sent in one account, and no one else's", async () => {
    const invitation = (accountId: string, email: string, invitedBy: string) =>
      invitations.invite({
        accountId,
        email,
        role: 'member',
        tokenHash: `h-${email}`,
        invitedBy,
        createdAt: NOW,
        expiresAt: NOW,
      });
    await invitation('acct-1', 'a@example.com', 'member:u1');
    await invitation('acct-1', 'b@example.com', 'member:u2');
    await invitation('acct-1', 'c@example.com', 'member:u1');
    await invitation('acct-2', 'd@example.com', 'member:u1');
    expect(await invitations.revokeSentBy('acct-1', 'member:u1')).toBe(2);
    expect(await invitations.redeemInvitation('acct-1', 'a@example.com', 'h-a@example.com')).toBeUndefined();
    expect(await invitations.redeemInvitation('acct-1', 'b@example.com', 'h-b@example.com')).toBeDefined();
    expect(await invitations.redeemInvitation('acct-2', 'd@example.com', 'h-d@example.com')).toBeDefined();
  });

  it("lists an account's pending invitations, and revokes one so that its link stops working", async () => {
    const invite = (accountId: string, email: string) =>
      invitations.invite({
        accountId,
        email,
        role: 'member',
        tokenHash: `h-${email.toLowerCase()}`,
        invitedBy: 'member:u1',
        createdAt: NOW,
        expiresAt: NOW,
      });
    await invite('acct-1', 'b@example.com');
    await invite('acct-1', 'A@Example.com');
    await invite('acct-2', 'c@example.com');
    expect((await invitations.listInvitations('acct-1')).map((i) => i.email)).toEqual([
      'a@example.com',
      'b@example.com',
    ]);
    const pending = await invitations.getInvitation('acct-1', 'A@example.com');
    expect(pending).toMatchObject({ email: 'a@example.com' });
    expect(await invitations.getInvitation('acct-1', 'c@example.com')).toBeUndefined();
    // Replaced meanwhile: the newer invitation stays.
    const b = await invitations.getInvitation('acct-1', 'b@example.com');
    if (pending === undefined || b === undefined) throw new Error('both invitations are pending');
    await invitations.invite({ ...b, tokenHash: 'h-b2' });
    expect(await invitations.revokeInvitation(b)).toBe(false);
    expect(await invitations.revokeInvitation(pending)).toBe(true);
    expect(await invitations.revokeInvitation(pending)).toBe(false);
    expect(await invitations.redeemInvitation('acct-1', 'a@example.com', 'h-a@example.com')).toBeUndefined();
    expect((await invitations.listInvitations('acct-1')).map((i) => [i.email, i.tokenHash])).toEqual([
      ['b@example.com', 'h-b2'],
    ]);
    expect(await invitations.redeemInvitation('acct-2', 'c@example.com', 'h-c@example.com')).toBeDefined();
  });

  it('gives an auto-join domain to one account only', async () => {
    expect(await autoJoin.replace('acct-1', ['a.example', 'b.example'], NOW)).toEqual({ taken: [] });
    expect(await autoJoin.replace('acct-2', ['c.example', 'b.example'], NOW)).toEqual({
      taken: ['b.example'],
    });
    expect(await autoJoin.list('acct-2')).toEqual([]);
    expect(await autoJoin.replace('acct-1', ['b.example'], NOW)).toEqual({ taken: [] });
    expect(await autoJoin.list('acct-1')).toEqual(['b.example']);
    expect(await autoJoin.accountFor('a.example')).toBeUndefined();
    expect(await autoJoin.replace('acct-2', ['a.example'], NOW)).toEqual({ taken: [] });
    expect(await autoJoin.accountFor('a.example')).toBe('acct-2');
  });
});
