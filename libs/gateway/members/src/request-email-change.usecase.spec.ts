import { hashToken } from './signed-tokens';
import { CONFIRM_EMAIL_CHANGE_PATH, RequestEmailChangeUseCase } from './request-email-change.usecase';
import { anEnvironment } from '@notify/testing';
import { ACCOUNT, type MembersHarness, membersHarness, NOW } from './testing/members.harness';

describe('RequestEmailChangeUseCase', () => {
  let h: MembersHarness;
  const request = (newEmail: string, accountId = ACCOUNT) =>
    new RequestEmailChangeUseCase(h.people, h.invitations, h.tokens, h.mail, h.clock).execute({
      userId: h.ownerId,
      accountId,
      newEmail,
    });

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it('mails a confirmation link to the new address and changes nothing yet', async () => {
    expect(await request('New@Example.com')).toEqual({ success: true });
    expect(h.sent.map((s) => [s.send.userId, s.envId])).toEqual([['new@example.com', 'env-1']]);
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

  it("mails through the account's oldest live environment, never a test one whose outbox the caller reads", async () => {
    await h.accounts.createEnvironment(
      anEnvironment({
        accountId: ACCOUNT,
        envId: 'env-0',
        test: true,
        createdAt: '2025-12-01T00:00:00.000Z',
      }),
      10,
    );
    await request('new@example.com');
    expect(h.sent.map((s) => [s.envId, s.test])).toEqual([['env-1', false]]);
  });

  it('refuses an account with only test environments (400 NO_LIVE_ENVIRONMENT), mailing and storing nothing', async () => {
    await h.accounts.createAccount({ accountId: 'acct-test', name: 'Sandbox', createdAt: NOW });
    await h.accounts.createEnvironment(
      anEnvironment({ accountId: 'acct-test', envId: 'env-t', test: true }),
      10,
    );
    await expect(request('new@example.com', 'acct-test')).rejects.toMatchObject({
      kind: 'invalid',
      code: 'NO_LIVE_ENVIRONMENT',
    });
    expect(h.sent).toEqual([]);
    expect(await h.pendingEmailChange(h.ownerId)).toBeUndefined();
  });
});
