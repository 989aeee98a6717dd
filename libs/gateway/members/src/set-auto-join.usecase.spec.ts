import { GetAutoJoinUseCase } from './get-auto-join.usecase';
import { SetAutoJoinUseCase } from './set-auto-join.usecase';
import { ACCOUNT, type MembersHarness, membersHarness } from './testing/members.harness';

describe('SetAutoJoinUseCase', () => {
  let h: MembersHarness;
  const view = () => new GetAutoJoinUseCase(h.accounts, h.autoJoin);
  const set = (domains: string[], accountId = ACCOUNT, callerEmail = 'admin@a.example') =>
    new SetAutoJoinUseCase(h.autoJoin, view(), h.clock).execute(accountId, domains, callerEmail);

  beforeEach(async () => {
    h = await membersHarness();
  });
  afterEach(() => h.close());

  it("replaces the account's domains and answers them", async () => {
    expect(await set(['a.example'])).toEqual({ organizationId: `org_${ACCOUNT}`, domains: ['a.example'] });
    expect(await view().execute(ACCOUNT)).toEqual({
      organizationId: `org_${ACCOUNT}`,
      domains: ['a.example'],
    });
    expect(await set([])).toEqual({ organizationId: `org_${ACCOUNT}`, domains: [] });
  });

  it("takes only the domain of the caller's own sign-in email (400 DOMAIN_NOT_VERIFIED) and changes nothing", async () => {
    await set(['a.example']);
    for (const domains of [['b.example'], ['a.example', 'b.example'], ['sub.a.example']])
      await expect(set(domains)).rejects.toMatchObject({ kind: 'invalid', code: 'DOMAIN_NOT_VERIFIED' });
    expect(await view().execute(ACCOUNT)).toEqual({
      organizationId: `org_${ACCOUNT}`,
      domains: ['a.example'],
    });
    expect(await set(['b.example'], ACCOUNT, 'Bea@B.Example')).toEqual({
      organizationId: `org_${ACCOUNT}`,
      domains: ['b.example'],
    });
  });

  it("refuses another account's domain (409 DOMAIN_TAKEN) and changes nothing", async () => {
    await set(['a.example']);
    await expect(set(['a.example'], 'acct-other')).rejects.toMatchObject({
      kind: 'conflict',
      code: 'DOMAIN_TAKEN',
    });
    expect(await view().execute('acct-other')).toEqual({ organizationId: 'org_acct-other', domains: [] });
    expect(await h.autoJoin.accountFor('a.example')).toBe(ACCOUNT);
  });
});
