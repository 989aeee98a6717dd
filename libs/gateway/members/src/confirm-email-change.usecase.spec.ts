import { ConfirmEmailChangeUseCase } from './confirm-email-change.usecase';
import { CONFIRM_EMAIL_CHANGE_PATH, RequestEmailChangeUseCase } from './request-email-change.usecase';
import { ACCOUNT, type MembersHarness, membersHarness } from './testing/members.harness';

describe('ConfirmEmailChangeUseCase', () => {
  let h: MembersHarness;
  const confirm = (token: string) =>
    new ConfirmEmailChangeUseCase(h.tokens, h.invitations, h.people).execute(token);
  const request = async (newEmail: string) => {
    await new RequestEmailChangeUseCase(h.people, h.invitations, h.tokens, h.mail, h.clock).execute({
      userId: h.ownerId,
      accountId: ACCOUNT,
      newEmail,
    });
    return h.tokenMailedTo(newEmail, CONFIRM_EMAIL_CHANGE_PATH);
  };

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it('moves the person to the new address once, keeping their bound identity', async () => {
    await h.people.bindSub(h.ownerId, 'idp|owner');
    const token = await request('new@example.com');
    expect(await confirm(token)).toEqual({ success: true, email: 'new@example.com' });
    expect(await h.people.findBySub('idp|owner')).toMatchObject({
      userId: h.ownerId,
      email: 'new@example.com',
    });
    expect(await h.people.findByEmail('owner@example.com')).toBeUndefined();
    await expect(confirm(token)).rejects.toMatchObject({ code: 'TOKEN_USED' });
  });

  it('refuses an expired or replaced link, changing nothing', async () => {
    const first = await request('new@example.com');
    const second = await request('newer@example.com');
    await expect(confirm(first)).rejects.toMatchObject({ code: 'TOKEN_USED' });
    h.clock.advance(168 * 3_600_000);
    await expect(confirm(second)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect((await h.people.get(h.ownerId))?.email).toBe('owner@example.com');
  });

  it('answers 409 EMAIL_TAKEN when someone took the address meanwhile', async () => {
    const token = await request('new@example.com');
    await h.people.findOrCreate('new@example.com', '2026-01-02T00:00:00.000Z');
    await expect(confirm(token)).rejects.toMatchObject({ kind: 'conflict', code: 'EMAIL_TAKEN' });
    expect((await h.people.get(h.ownerId))?.email).toBe('owner@example.com');
  });
});
