import { loadAppConfig } from '@notify/platform';
import { ListAccountsUseCase } from './list-accounts.usecase';
import { aKeyCaller, type OrganizationHarness, organizationHarness } from './testing/organization.harness';

describe('ListAccountsUseCase', () => {
  let h: OrganizationHarness;

  beforeEach(async () => {
    h = await organizationHarness(loadAppConfig({}));
    await h.anAccount('acct-b', { 'ann@example.com': 'member' });
    await h.anAccount('acct-a', { 'ann@example.com': 'owner', 'bob@example.com': 'admin' });
    await h.anAccount('acct-z', { 'zed@example.com': 'owner' });
  });

  afterEach(() => h.close());

  const list = (caller: Parameters<ListAccountsUseCase['execute']>[0]) =>
    new ListAccountsUseCase(h.accounts, h.memberships).execute(caller);

  it('lists a member’s accounts, oldest membership first, with their role and organization', async () => {
    const created = await h.creator.create({
      name: 'Later',
      owner: (await h.member('ann@example.com', 'acct-a')).userId,
      organization: { existing: 'org_x' },
    });
    const { accounts } = await list(await h.member('ann@example.com', 'acct-a'));
    expect(accounts).toEqual([
      {
        accountId: 'acct-b',
        name: 'Account acct-b',
        role: 'member',
        createdAt: expect.any(String),
        organizationId: 'org_acct-b',
      },
      {
        accountId: 'acct-a',
        name: 'Account acct-a',
        role: 'owner',
        createdAt: expect.any(String),
        organizationId: 'org_acct-a',
      },
      {
        accountId: created.account.accountId,
        name: 'Later',
        role: 'owner',
        createdAt: h.now(),
        organizationId: 'org_x',
      },
    ]);
  });

  it('lists only an API key’s own account, with an admin’s rights', async () => {
    expect(await list(aKeyCaller('acct-z'))).toEqual({
      accounts: [
        expect.objectContaining({ accountId: 'acct-z', role: 'admin', organizationId: 'org_acct-z' }),
      ],
    });
  });
});
