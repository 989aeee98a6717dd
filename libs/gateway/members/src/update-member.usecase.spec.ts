import { NotFoundError } from '@notify/util';
import { ACCOUNT, type MembersHarness, membersHarness } from './testing/members.harness';
import { UpdateMemberUseCase } from './update-member.usecase';

describe('UpdateMemberUseCase', () => {
  let h: MembersHarness;
  const update = (userId: string, role: 'owner' | 'admin' | 'member') =>
    new UpdateMemberUseCase(h.memberships, h.clock).execute({ accountId: ACCOUNT, userId, role });

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it('changes a role and stamps the change', async () => {
    const ann = await h.join('ann@example.com', 'member');
    expect(await update(ann, 'admin')).toEqual({ success: true });
    expect(await h.memberships.get(ACCOUNT, ann)).toMatchObject({
      role: 'admin',
      updatedAt: new Date(h.clock.now()).toISOString(),
    });
  });

  it('keeps the last owner an owner (400 LAST_OWNER), but not once there is another', async () => {
    await expect(update(h.ownerId, 'admin')).rejects.toMatchObject({ kind: 'invalid', code: 'LAST_OWNER' });
    const ann = await h.join('ann@example.com', 'member');
    await update(ann, 'owner');
    await update(h.ownerId, 'member');
    await expect(update(ann, 'admin')).rejects.toMatchObject({ code: 'LAST_OWNER' });
    expect((await h.memberships.get(ACCOUNT, h.ownerId))?.role).toBe('member');
  });

  it("answers 404 for someone who is not a member of the account (another account's too)", async () => {
    const eve = await h.join('eve@example.com', 'member', 'acct-other');
    await expect(update(eve, 'admin')).rejects.toBeInstanceOf(NotFoundError);
    expect((await h.memberships.get('acct-other', eve))?.role).toBe('member');
  });
});
