import type { Role } from '@notify/domain';
import { NotFoundError } from '@notify/util';
import { RemoveMemberUseCase } from './remove-member.usecase';
import { ACCOUNT, type MembersHarness, membersHarness, NOW } from './testing/members.harness';

describe('RemoveMemberUseCase', () => {
  let h: MembersHarness;
  const remove = (userId: string, actor: { userId: string; role: Role }) =>
    new RemoveMemberUseCase(h.memberships, h.invitations).execute({ accountId: ACCOUNT, userId, actor });
  const isMember = async (userId: string) => (await h.memberships.get(ACCOUNT, userId)) !== undefined;

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it('lets anyone leave, and admins remove others', async () => {
    const ann = await h.join('ann@example.com', 'member');
    const bob = await h.join('bob@example.com', 'member');
    expect(await remove(ann, { userId: ann, role: 'member' })).toEqual({ success: true });
    await remove(bob, { userId: h.ownerId, role: 'admin' });
    expect([await isMember(ann), await isMember(bob)]).toEqual([false, false]);
  });

  it('refuses a member removing another, and an admin removing an owner (403)', async () => {
    const ann = await h.join('ann@example.com', 'member');
    const adam = await h.join('adam@example.com', 'admin');
    await expect(remove(adam, { userId: ann, role: 'member' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(remove(h.ownerId, { userId: adam, role: 'admin' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect([await isMember(adam), await isMember(h.ownerId)]).toEqual([true, true]);
  });

  it('never removes the last owner, even when they leave (400 LAST_OWNER)', async () => {
    await expect(remove(h.ownerId, { userId: h.ownerId, role: 'owner' })).rejects.toMatchObject({
      code: 'LAST_OWNER',
    });
    const olga = await h.join('olga@example.com', 'owner');
    await remove(h.ownerId, { userId: olga, role: 'owner' });
    expect(await isMember(h.ownerId)).toBe(false);
    await expect(remove(olga, { userId: olga, role: 'owner' })).rejects.toMatchObject({ code: 'LAST_OWNER' });
  });

  it("answers 404 for another account's member", async () => {
    const eve = await h.join('eve@example.com', 'member', 'acct-other');
    await expect(remove(eve, { userId: h.ownerId, role: 'owner' })).rejects.toBeInstanceOf(NotFoundError);
    expect(await h.memberships.get('acct-other', eve)).toBeDefined();
  });

  it("drops the pending invitations the removed member sent, and no one else's", async () => {
    const adam = await h.join('adam@example.com', 'admin');
    const invitation = (email: string, invitedBy: string) =>
      h.invitations.invite({
        accountId: ACCOUNT,
        email,
        role: 'member',
        tokenHash: `hash-${email}`,
        invitedBy,
        createdAt: NOW,
        expiresAt: NOW,
      });
    await invitation('ann@example.com', `member:${adam}`);
    await invitation('bob@example.com', `member:${adam}`);
    await invitation('cid@example.com', `member:${h.ownerId}`);
    await remove(adam, { userId: h.ownerId, role: 'owner' });
    expect(await h.pendingInvitation('ann@example.com')).toBeUndefined();
    expect(await h.pendingInvitation('bob@example.com')).toBeUndefined();
    expect(await h.pendingInvitation('cid@example.com')).toMatchObject({ invitedBy: `member:${h.ownerId}` });
  });
});
