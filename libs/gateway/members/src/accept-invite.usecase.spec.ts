import type { Invitation, Role } from '@notify/domain';
import { loadAppConfig } from '@notify/platform';
import { randomBytes } from 'node:crypto';
import { AcceptInviteUseCase } from './accept-invite.usecase';
import { ACCEPT_INVITE_PATH, InviteMemberUseCase } from './invite-member.usecase';
import { SignedTokens } from './signed-tokens';
import { ACCOUNT, type MembersHarness, membersHarness, NOW } from './testing/members.harness';

describe('AcceptInviteUseCase', () => {
  let h: MembersHarness;
  const accept = (token: string) =>
    new AcceptInviteUseCase(h.tokens, h.invitations, h.people, h.memberships, h.clock).execute(token);
  const invite = async (
    email: string,
    role: 'owner' | 'admin' | 'member' = 'admin',
    inviter = { userId: h.ownerId, role: 'owner' as Role },
  ) => {
    await new InviteMemberUseCase(h.people, h.memberships, h.invitations, h.tokens, h.mail, h.clock).execute({
      accountId: ACCOUNT,
      email,
      role,
      invitedBy: `member:${inviter.userId}`,
      inviterRole: inviter.role,
    });
    return h.tokenMailedTo(email, ACCEPT_INVITE_PATH);
  };
  const roleOf = async (email: string) => {
    const person = await h.people.findByEmail(email);
    return person === undefined ? undefined : (await h.memberships.get(ACCOUNT, person.userId))?.role;
  };

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it('creates the person and the membership with the invited role, once', async () => {
    const token = await invite('ann@example.com');
    expect(await accept(token)).toEqual({
      success: true,
      accountId: ACCOUNT,
      userExists: false,
      inviteeEmail: 'ann@example.com',
    });
    expect(await roleOf('ann@example.com')).toBe('admin');
    await expect(accept(token)).rejects.toMatchObject({ kind: 'invalid', code: 'TOKEN_USED' });
  });

  it('adds a person who already exists (another account) and counts a new owner', async () => {
    await h.join('bob@example.com', 'owner', 'acct-other');
    expect((await accept(await invite('bob@example.com', 'owner'))).userExists).toBe(true);
    expect(await roleOf('bob@example.com')).toBe('owner');
    // Two owners now: the first may step down.
    expect(await h.memberships.changeRole(ACCOUNT, h.ownerId, 'admin', '2026-01-02T00:00:00.000Z')).toBe(
      'done',
    );
  });

  it('refuses an expired link and writes nothing', async () => {
    const token = await invite('ann@example.com');
    h.clock.advance(168 * 3_600_000);
    await expect(accept(token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect(await h.people.findByEmail('ann@example.com')).toBeUndefined();
    expect(await h.pendingInvitation('ann@example.com')).toBeDefined();
  });

  it('refuses forged, tampered and replaced links, and tokens made for something else', async () => {
    const first = await invite('ann@example.com');
    const second = await invite('ann@example.com');
    await expect(accept(first)).rejects.toMatchObject({ code: 'TOKEN_USED' });
    const [payload, mac] = second.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, accountId: 'acct-other' })).toString('base64url');
    await expect(accept(`${forged}.${mac}`)).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(accept('not-a-token')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    const other = h.tokens.issue({ purpose: 'email_change', userId: h.ownerId, email: 'ann@example.com' });
    await expect(accept(other.token)).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    expect(await h.people.findByEmail('ann@example.com')).toBeUndefined();
    expect((await accept(second)).inviteeEmail).toBe('ann@example.com');
  });

  it('accepts a link mailed before a SECRETS_KEY rotation while the old key is among SECRETS_PREVIOUS_KEYS', async () => {
    const old = randomBytes(32).toString('base64');
    await h.close();
    h = await membersHarness({ SECRETS_KEY: old });
    const token = await invite('ann@example.com');
    const acceptWith = (previous: Record<string, string>) => {
      const config = loadAppConfig({ SECRETS_KEY: randomBytes(32).toString('base64'), ...previous });
      const rotated = new SignedTokens(config, h.clock);
      return new AcceptInviteUseCase(rotated, h.invitations, h.people, h.memberships, h.clock).execute(token);
    };
    await expect(acceptWith({})).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await acceptWith({ SECRETS_PREVIOUS_KEYS: old })).inviteeEmail).toBe('ann@example.com');
  });

  it('keeps the role of someone who became a member meanwhile', async () => {
    const token = await invite('ann@example.com', 'admin');
    await h.join('ann@example.com', 'member');
    expect((await accept(token)).userExists).toBe(true);
    expect(await roleOf('ann@example.com')).toBe('member');
  });

  it('refuses an invitation whose inviter left or may no longer grant its role (400 INVITATION_REVOKED), writing nothing', async () => {
    const adam = await h.join('adam@example.com', 'admin');
    const ownerSent = await invite('olga@example.com', 'owner');
    const adamSent = await invite('ann@example.com', 'member', { userId: adam, role: 'admin' });
    await h.join('second@example.com', 'owner');
    expect(await h.memberships.changeRole(ACCOUNT, h.ownerId, 'admin', NOW)).toBe('done');
    expect(await h.memberships.remove(ACCOUNT, adam)).toBe('done');
    for (const token of [ownerSent, adamSent])
      await expect(accept(token)).rejects.toMatchObject({ kind: 'invalid', code: 'INVITATION_REVOKED' });
    expect(await h.people.findByEmail('olga@example.com')).toBeUndefined();
    expect(await h.people.findByEmail('ann@example.com')).toBeUndefined();
    // A demoted owner still holds an admin's right to invite admins.
    expect((await accept(await invite('bea@example.com', 'admin'))).success).toBe(true);
    expect(await roleOf('bea@example.com')).toBe('admin');
  });

  it('refuses an invitation recorded as sent by an API key', async () => {
    const token = await invite('ann@example.com');
    const stored = await h.pendingInvitation('ann@example.com');
    await h.invitations.invite({ ...(stored as Invitation), invitedBy: 'key_1' });
    await expect(accept(token)).rejects.toMatchObject({ code: 'INVITATION_REVOKED' });
  });
});
