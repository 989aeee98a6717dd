import { GetAutoJoinUseCase } from './get-auto-join.usecase';
import { SetAutoJoinUseCase } from './set-auto-join.usecase';
import { ACCOUNT, type MembersHarness, membersHarness } from './testing/members.harness';

describe('SetAutoJoinUseCase', () => {
  let h: MembersHarness;
  const view = () => new GetAutoJoinUseCase(h.accounts, h.autoJoin);
  const set = (domains: string[], accountId = ACCOUNT) =>
    new SetAutoJoinUseCase(h.autoJoin, view(), h.clock).execute(accountId, domains);

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it("replaces the account's domains and answers them", async () => {
    expect(await set(['b.example', 'a.example'])).toEqual({
      organizationId: `org_${ACCOUNT}`,
      domains: ['a.example', 'b.example'],
    });
    expect(await set(['c.example'])).toEqual({ organizationId: `org_${ACCOUNT}`, domains: ['c.example'] });
    expect(await view().execute(ACCOUNT)).toEqual({
      organizationId: `org_${ACCOUNT}`,
      domains: ['c.example'],
    });
    expect(await set([])).toEqual({ organizationId: `org_${ACCOUNT}`, domains: [] });
  });

  it("refuses another account's domain (409 DOMAIN_TAKEN) and changes nothing", async () => {
    await set(['a.example']);
    await expect(set(['z.example', 'a.example'], 'acct-other')).rejects.toMatchObject({
      kind: 'conflict',
      code: 'DOMAIN_TAKEN',
    });
    expect(await view().execute('acct-other')).toEqual({ organizationId: 'org_acct-other', domains: [] });
    expect(await h.autoJoin.accountFor('a.example')).toBe(ACCOUNT);
  });
});
