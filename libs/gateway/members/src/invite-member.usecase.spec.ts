import { NotFoundError } from '@notify/util';
import { hashToken } from './signed-tokens';
import { ACCOUNT, type MembersHarness, membersHarness } from './testing/members.harness';
import { ACCEPT_INVITE_PATH, type InviteMemberCommand, InviteMemberUseCase } from './invite-member.usecase';

describe('InviteMemberUseCase', () => {
  let h: MembersHarness;
  const invite = (command: Partial<InviteMemberCommand> = {}) =>
    new InviteMemberUseCase(h.people, h.memberships, h.invitations, h.tokens, h.mail, h.clock).execute({
      accountId: ACCOUNT,
      email: 'Ann@Example.com',
      role: 'admin',
      invitedBy: `member:${h.ownerId}`,
      inviterRole: 'owner',
      ...command,
    });

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it("mails a link through the account's oldest environment and keeps only the token's hash", async () => {
    const answer = await invite();
    expect(answer.message).toBe('Invitation sent to ann@example.com.');
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]).toMatchObject({
      accountId: ACCOUNT,
      envId: 'env-1',
      source: 'email',
    });
    expect(h.sent[0]?.request).not.toContain('token');
    const token = h.tokenMailedTo('ann@example.com', ACCEPT_INVITE_PATH);
    expect(JSON.stringify(h.sent[0]?.send)).toContain(
      `https://notify.example/base/${ACCEPT_INVITE_PATH}?token=${token}`,
    );
    const stored = await h.pendingInvitation('ann@example.com');
    expect(stored).toMatchObject({
      role: 'admin',
      invitedBy: `member:${h.ownerId}`,
      tokenHash: hashToken(token),
    });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(Date.parse(stored?.expiresAt ?? '') - h.clock.now()).toBe(168 * 3_600_000);
  });

  it('sends from the environment named, and refuses one of another account (404) before writing', async () => {
    await invite({ envId: 'env-2' });
    expect(h.sent[0]?.envId).toBe('env-2');
    await expect(invite({ email: 'bob@example.com', envId: 'env-elsewhere' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await h.pendingInvitation('bob@example.com')).toBeUndefined();
  });

  it('replaces a pending invitation: the earlier link no longer matches', async () => {
    await invite();
    const first = h.tokenMailedTo('ann@example.com', ACCEPT_INVITE_PATH);
    await invite({ role: 'member' });
    const second = h.tokenMailedTo('ann@example.com', ACCEPT_INVITE_PATH);
    expect(second).not.toBe(first);
    expect(await h.pendingInvitation('ann@example.com')).toMatchObject({
      role: 'member',
      tokenHash: hashToken(second),
    });
  });

  it('refuses a member of the account (409 ALREADY_MEMBER) and mails nothing', async () => {
    await h.join('ann@example.com', 'member');
    await expect(invite()).rejects.toMatchObject({ kind: 'conflict', code: 'ALREADY_MEMBER' });
    await h.join('bob@example.com', 'member', 'acct-other');
    await invite({ email: 'bob@example.com' });
    expect(h.sent.map((s) => s.send.userId)).toEqual(['bob@example.com']);
  });

  it('lets only an owner invite an owner, and no member invite anyone (403)', async () => {
    await expect(invite({ role: 'owner', inviterRole: 'admin' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(invite({ role: 'member', inviterRole: 'member' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await invite({ role: 'owner' });
    await invite({ email: 'bob@example.com', role: 'admin', inviterRole: 'admin' });
    expect(h.sent).toHaveLength(2);
  });

  it('needs an environment to send from', async () => {
    await h.accounts.createAccount({
      accountId: 'empty',
      name: 'Empty',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    await expect(invite({ accountId: 'empty' })).rejects.toMatchObject({ code: 'NO_ENVIRONMENT' });
  });
});
