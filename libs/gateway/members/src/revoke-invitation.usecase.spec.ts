import type { Role } from '@notify/domain';
import { ListInvitationsUseCase } from './list-invitations.usecase';
import { RevokeInvitationUseCase } from './revoke-invitation.usecase';
import { ACCOUNT, type MembersHarness, membersHarness, NOW } from './testing/members.harness';

describe('ListInvitationsUseCase and RevokeInvitationUseCase', () => {
  let h: MembersHarness;
  const invite = (email: string, role: Role, accountId = ACCOUNT) =>
    h.invitations.invite({
      accountId,
      email,
      role,
      tokenHash: `hash-${email}`,
      invitedBy: `member:${h.ownerId}`,
      createdAt: NOW,
      expiresAt: NOW,
    });
  const list = () => new ListInvitationsUseCase(h.invitations).execute(ACCOUNT);
  const revoke = (email: string, actorRole: Role) =>
    new RevokeInvitationUseCase(h.invitations).execute({ accountId: ACCOUNT, email, actorRole });

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it("lists the account's pending invitations without their token hashes", async () => {
    await invite('ann@example.com', 'admin');
    await invite('zed@example.com', 'member', 'acct-other');
    expect(await list()).toEqual({
      invitations: [
        {
          email: 'ann@example.com',
          role: 'admin',
          invitedBy: `member:${h.ownerId}`,
          createdAt: NOW,
          expiresAt: NOW,
        },
      ],
    });
  });

  it('revokes an invitation so that it cannot be redeemed; unknown or another account’s is 404', async () => {
    await invite('ann@example.com', 'member');
    await invite('zed@example.com', 'member', 'acct-other');
    expect(await revoke('Ann@Example.com', 'admin')).toEqual({ success: true });
    expect(
      await h.invitations.redeemInvitation(ACCOUNT, 'ann@example.com', 'hash-ann@example.com'),
    ).toBeUndefined();
    await expect(revoke('ann@example.com', 'admin')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(revoke('zed@example.com', 'owner')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await h.invitations.getInvitation('acct-other', 'zed@example.com')).toBeDefined();
  });

  it('lets only an owner revoke an invitation to become an owner (403), and no member any', async () => {
    await invite('olga@example.com', 'owner');
    await invite('max@example.com', 'member');
    await expect(revoke('olga@example.com', 'admin')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(revoke('max@example.com', 'member')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await list()).invitations.map((i) => i.email)).toEqual(['max@example.com', 'olga@example.com']);
    expect(await revoke('olga@example.com', 'owner')).toEqual({ success: true });
  });
});
