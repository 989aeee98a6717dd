import { hashApiKey } from '@notify/gateway-auth';
import { loadAppConfig } from '@notify/platform';
import { ForbiddenError, InvalidRequestError, NotFoundError } from '@notify/util';
import type { CreateAccountBody } from './account.schemas';
import { CreateAccountUseCase } from './create-account.usecase';
import { aKeyCaller, type OrganizationHarness, organizationHarness } from './testing/organization.harness';

const config = loadAppConfig({ MAX_ACCOUNTS_PER_MEMBER: '2' });

describe('CreateAccountUseCase', () => {
  let h: OrganizationHarness;

  beforeEach(async () => {
    h = await organizationHarness(config);
    await h.anAccount('acct-a', { 'ann@example.com': 'owner', 'bob@example.com': 'member' });
    await h.anAccount('acct-b', { 'cat@example.com': 'owner', 'ann@example.com': 'admin' });
    await h.anAccount('acct-z', { 'zed@example.com': 'owner' });
  });

  afterEach(() => h.close());

  const useCase = () =>
    new CreateAccountUseCase(
      h.creator,
      h.accounts,
      h.memberships,
      h.people,
      h.accountOrganizations,
      h.invitations,
      h.clock,
    );
  const create = async (email: string, actingIn: string, body: CreateAccountBody) =>
    useCase().execute({ caller: await h.member(email, actingIn), body });
  const accountsOf = async (email: string) => {
    const person = await h.people.findByEmail(email);
    return (await h.memberships.listByPerson(person?.userId ?? '')).map((m) => [m.accountId, m.role]);
  };

  it('makes the caller the owner of a new account with its first environment and key, shown once', async () => {
    const created = await create('ann@example.com', 'acct-a', { name: 'Acme EU' });
    expect(created).toEqual({
      accountId: expect.stringMatching(/^acct_/),
      name: 'Acme EU',
      status: 'active',
      subscriptionStatus: 'none',
      apiKey: expect.any(String),
      organizationId: 'org_acct-a',
      envId: expect.any(String),
      messages: [],
    });
    expect(await accountsOf('ann@example.com')).toContainEqual([created.accountId, 'owner']);
    expect(await h.accounts.getAccount(created.accountId)).toMatchObject({
      name: 'Acme EU',
      organizationId: 'org_acct-a',
      createdAt: h.now(),
    });
    expect(await h.keys.findByHash(hashApiKey(created.apiKey))).toMatchObject({
      accountId: created.accountId,
      envId: created.envId,
    });
    expect((await h.accounts.listEnvironments(created.accountId)).map((e) => e.envId)).toEqual([
      created.envId,
    ]);
  });

  it('refuses an API key with 403: an account belongs to people', async () => {
    await expect(
      useCase().execute({ caller: aKeyCaller('acct-a'), body: { name: 'X' } }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(await h.organizations.get('org_acct-a')).toBeUndefined();
  });

  it('records the plan of a source billing account the caller owns, in that account’s organization', async () => {
    const created = await create('ann@example.com', 'acct-b', {
      name: 'Paid',
      plan: { tier: 'budget_100', sourceBillingAccountId: 'acct-a' },
    });
    expect(await h.accounts.getAccount(created.accountId)).toMatchObject({
      plan: { tier: 'budget_100', sourceBillingAccountId: 'acct-a' },
      organizationId: 'org_acct-a',
    });
  });

  it('refuses a source billing account of the caller’s they do not own (403), another tenant’s or none (404), writing nothing', async () => {
    const plan = (sourceBillingAccountId: string) => ({ tier: 'budget_20' as const, sourceBillingAccountId });
    await expect(
      create('ann@example.com', 'acct-a', { name: 'X', plan: plan('acct-b') }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      kind: 'forbidden',
    });
    await expect(
      create('ann@example.com', 'acct-a', { name: 'X', plan: plan('acct-z') }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      create('ann@example.com', 'acct-a', { name: 'X', plan: plan('acct-none') }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await accountsOf('ann@example.com')).toEqual([
      ['acct-a', 'owner'],
      ['acct-b', 'admin'],
    ]);
  });

  it('starts an organization of its own when the caller owns neither the source nor the account it acts in', async () => {
    const created = await create('bob@example.com', 'acct-a', { name: 'Side project' });
    expect(created.organizationId).toMatch(/^org_/);
    expect(created.organizationId).not.toBe('org_acct-a');
    const bob = await h.people.findByEmail('bob@example.com');
    expect(await h.organizations.get(created.organizationId)).toMatchObject({
      name: 'Side project',
      creator: bob?.userId,
      organizationType: 'free',
    });
  });

  it('adds people of the caller’s accounts at once and invites everyone else, the caller left out', async () => {
    const created = await create('ann@example.com', 'acct-a', {
      name: 'Team',
      memberEmails: [
        'Bob@Example.com',
        'cat@example.com',
        'bob@example.com',
        'zed@example.com',
        'new@example.com',
        'ANN@example.com',
      ],
    });
    expect(await accountsOf('bob@example.com')).toContainEqual([created.accountId, 'member']);
    expect(await accountsOf('cat@example.com')).toContainEqual([created.accountId, 'member']);
    expect(await accountsOf('zed@example.com')).toEqual([['acct-z', 'owner']]);
    const ann = await h.people.findByEmail('ann@example.com');
    expect(h.invitations.sent).toEqual([
      {
        accountId: created.accountId,
        email: 'zed@example.com',
        role: 'member',
        invitedBy: ann?.userId,
        envId: created.envId,
      },
      {
        accountId: created.accountId,
        email: 'new@example.com',
        role: 'member',
        invitedBy: ann?.userId,
        envId: created.envId,
      },
    ]);
    expect(await accountsOf('ann@example.com')).toContainEqual([created.accountId, 'owner']);
  });

  it('answers with the account and its key when an invitation fails, naming it in messages', async () => {
    h.invitations.failing.add('new@example.com');
    const created = await create('ann@example.com', 'acct-a', {
      name: 'Team',
      memberEmails: ['new@example.com', 'zed@example.com'],
    });
    expect(created.apiKey).toEqual(expect.any(String));
    expect(created.messages).toEqual([expect.stringContaining('new@example.com')]);
    expect(h.invitations.sent.map((i) => i.email)).toEqual(['zed@example.com']);
    expect(await accountsOf('ann@example.com')).toContainEqual([created.accountId, 'owner']);
  });

  it('refuses a person’s account past MAX_ACCOUNTS_PER_MEMBER with 400 LIMIT_REACHED', async () => {
    await create('ann@example.com', 'acct-a', { name: 'One' });
    await create('ann@example.com', 'acct-a', { name: 'Two' });
    const third = create('ann@example.com', 'acct-a', { name: 'Three' });
    await expect(third).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(third).rejects.toMatchObject({ code: 'LIMIT_REACHED' });
    expect(await accountsOf('ann@example.com')).toHaveLength(4);
    await expect(create('cat@example.com', 'acct-b', { name: 'Cat’s' })).resolves.toMatchObject({
      name: 'Cat’s',
    });
  });
});
