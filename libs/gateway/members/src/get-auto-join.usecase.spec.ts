import { GetAutoJoinUseCase } from './get-auto-join.usecase';
import { ACCOUNT, type MembersHarness, membersHarness, NOW } from './testing/members.harness';

describe('GetAutoJoinUseCase', () => {
  let h: MembersHarness;
  const get = (accountId = ACCOUNT) => new GetAutoJoinUseCase(h.accounts, h.autoJoin).execute(accountId);

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it("answers the account's own domains only", async () => {
    expect(await get()).toEqual({ organizationId: `org_${ACCOUNT}`, domains: [] });
    await h.autoJoin.replace(ACCOUNT, ['a.example'], NOW);
    await h.autoJoin.replace('acct-other', ['z.example'], NOW);
    expect(await get()).toEqual({ organizationId: `org_${ACCOUNT}`, domains: ['a.example'] });
  });
});
