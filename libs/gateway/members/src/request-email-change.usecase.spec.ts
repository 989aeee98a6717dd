import { hashToken } from './signed-tokens';
import { CONFIRM_EMAIL_CHANGE_PATH, RequestEmailChangeUseCase } from './request-email-change.usecase';
import { ACCOUNT, type MembersHarness, membersHarness } from './testing/members.harness';

describe('RequestEmailChangeUseCase', () => {
  let h: MembersHarness;
  const request = (newEmail: string, envId?: string) =>
    new RequestEmailChangeUseCase(h.people, h.invitations, h.tokens, h.mail, h.clock).execute({
      userId: h.ownerId,
      accountId: ACCOUNT,
      newEmail,
      ...(envId === undefined ? {} : { envId }),
    });

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it('mails a confirmation link to the new address and changes nothing yet', async () => {
    expect(await request('New@Example.com', 'env-2')).toEqual({ success: true });
    expect(h.sent.map((s) => [s.send.userId, s.envId])).toEqual([['new@example.com', 'env-2']]);
    const token = h.tokenMailedTo('new@example.com', CONFIRM_EMAIL_CHANGE_PATH);
    const claims = h.tokens.verify(token, 'email_change');
    expect(claims).toMatchObject({ userId: h.ownerId, email: 'new@example.com' });
    expect((await h.people.get(h.ownerId))?.email).toBe('owner@example.com');
    expect(await h.invitations.redeemEmailChange(h.ownerId, hashToken(token))).toMatchObject({
      newEmail: 'new@example.com',
    });
  });

  it("refuses the person's own address (400) and another person's (409), mailing nothing", async () => {
    await expect(request('OWNER@example.com')).rejects.toMatchObject({ code: 'SAME_EMAIL' });
    await h.join('ann@example.com', 'member', 'acct-other');
    await expect(request('ann@example.com')).rejects.toMatchObject({ kind: 'conflict', code: 'EMAIL_TAKEN' });
    expect(h.sent).toEqual([]);
  });
});
