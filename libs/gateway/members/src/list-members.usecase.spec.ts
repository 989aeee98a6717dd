import { ListMembersUseCase } from './list-members.usecase';
import { ACCOUNT, type MembersHarness, membersHarness, NOW } from './testing/members.harness';

describe('ListMembersUseCase', () => {
  let h: MembersHarness;
  const list = (accountId = ACCOUNT) =>
    new ListMembersUseCase(h.accounts, h.memberships, h.people).execute(accountId);

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it("lists the account's members only, each with its role as the one group", async () => {
    const ann = await h.join('ann@example.com', 'admin');
    await h.join('eve@example.com', 'owner', 'acct-other');
    const listed = await list();
    expect(listed).toHaveLength(2);
    expect(listed).toEqual(
      expect.arrayContaining([
        {
          organizationId: `org_${ACCOUNT}`,
          accountId: ACCOUNT,
          userId: h.ownerId,
          createdAt: NOW,
          email: 'owner@example.com',
          groups: ['owner'],
        },
        {
          organizationId: `org_${ACCOUNT}`,
          accountId: ACCOUNT,
          userId: ann,
          createdAt: NOW,
          email: 'ann@example.com',
          groups: ['admin'],
        },
      ]),
    );
  });

  it("names the account's organization when it has one", async () => {
    await h.store
      .collection<{ accountId: string; name: string; createdAt: string; organizationId: string }>({
        name: 'accounts',
        key: ['accountId'],
      })
      .insert({ accountId: 'acct-org', name: 'Org', createdAt: NOW, organizationId: 'org-1' });
    await h.join('ann@example.com', 'owner', 'acct-org');
    expect((await list('acct-org')).map((m) => m.organizationId)).toEqual(['org-1']);
  });
});
