import type { Role } from '@notify/domain';
import { aMemberToken, eventually } from '@notify/testing';
import { type AllInOne, bootstrapKey, callAs, pingramIn, startAllInOne } from './all-in-one';

const OWNER = 'owner@notify.localhost';
const BOB = 'bob@example.com';

/**
 * Accounts and organizations through the pingram client (API key and member JWT) and plain HTTP
 * where pingram has no operation. Before the first start the store holds people of an older
 * installation: the bootstrap owner with Bob in account `team`, Bob owning `elsewhere`, and the
 * owner as admin of `shared`. The owner is then made owner of `default` on first start.
 */
describe('accounts and organization (all-in-one, members signing in with JWTs)', () => {
  let app: AllInOne;
  let base: string;
  /** The API key of the default account's first environment. */
  let key: string;
  const owner = aMemberToken({ email: OWNER });
  const bob = aMemberToken({ email: BOB });

  const call = (path: string, as: string, init: RequestInit = {}) => callAs(base, path, as, init);
  const post = (path: string, as: string, body: unknown) =>
    call(path, as, { method: 'POST', body: JSON.stringify(body) });
  const errorOf = async (response: Response) =>
    ((await response.json()) as { error: { code: string; message: string } }).error;
  const pingram = (apiKey: string) => pingramIn(base, apiKey);

  interface Created {
    accountId: string;
    name: string;
    status: string;
    subscriptionStatus: string;
    apiKey: string;
    organizationId: string;
    envId: string;
    messages: string[];
  }
  interface Listed {
    accounts: { accountId: string; name: string; role: Role; organizationId: string }[];
  }

  beforeAll(async () => {
    // The owner's first account is `team`: memberships are made in the order listed.
    app = await startAllInOne('notify-accounts-', {
      tenants: [
        {
          accountId: 'team',
          name: 'Account team',
          members: [
            { email: OWNER, role: 'owner' },
            { email: BOB, role: 'member' },
          ],
        },
        { accountId: 'elsewhere', name: 'Account elsewhere', members: [{ email: BOB, role: 'owner' }] },
        {
          accountId: 'shared',
          name: 'Account shared',
          members: [
            { email: 'carol@example.com', role: 'owner' },
            { email: OWNER, role: 'admin' },
          ],
        },
      ],
      now: new Date().toISOString(),
      env: { MAX_ACCOUNTS_PER_MEMBER: '3' },
    });
    base = app.baseUrl;
    key = await bootstrapKey(app);
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('creates an account owned by the member, adding at once a person of one of their accounts and inviting another', async () => {
    const response = await post('/accounts', owner, {
      name: 'Second',
      memberEmails: [BOB, 'dan@example.com'],
    });
    expect(response.status).toBe(200);
    const created = (await response.json()) as Created;
    expect(created).toMatchObject({ name: 'Second', status: 'active', subscriptionStatus: 'none' });
    const mine = (await (await call('/accounts', owner)).json()) as Listed;
    expect(mine.accounts).toContainEqual(
      expect.objectContaining({ accountId: created.accountId, role: 'owner' }),
    );
    // Bob belongs to `team`, one of the owner's accounts: he is a member of the new account at once.
    const bobs = (await (await call('/accounts', bob)).json()) as Listed;
    expect(bobs.accounts).toContainEqual(
      expect.objectContaining({ accountId: created.accountId, name: 'Second', role: 'member' }),
    );
    const asBob = await call(`/account?accountId=${created.accountId}`, bob);
    expect(await asBob.json()).toMatchObject({ accountId: created.accountId, name: 'Second' });
    // Dan belongs to none of them: he is invited, by mail through the new account's own pipeline.
    expect(created.messages).toEqual([]);
    const invitation = await eventually(async () => {
      const outbox = (await (await call('/dev/outbox/email', created.apiKey)).json()) as {
        messages: { to: string[] | string; html?: string; text?: string }[];
      };
      const found = outbox.messages.find((m) => JSON.stringify(m.to).includes('dan@example.com'));
      if (found === undefined) throw new Error('no invitation mailed to dan@example.com yet');
      return JSON.stringify(found);
    }, 20_000);
    expect(invitation).toMatch(/accept_invite\?token=/);
    const dans = await call('/accounts', aMemberToken({ email: 'dan@example.com' }));
    expect(dans.status).toBe(403);
  });

  it('gives the new account a key that works in its own environment and not in the default one', async () => {
    const created = (await (await post('/accounts', owner, { name: 'Keyed' })).json()) as Created;
    expect(await pingram(created.apiKey).account.getAccountDetails()).toMatchObject({
      accountId: created.accountId,
      organizationId: created.organizationId,
      name: 'Keyed',
    });
    const environments = (await (await call('/environments', created.apiKey)).json()) as {
      clientId: string;
    }[];
    expect(environments.map((e) => e.clientId)).toEqual([created.envId]);
    const [defaultEnvironment] = (await (await call('/environments', key)).json()) as { clientId: string }[];
    const elsewhere = await call(`/environments?envId=${defaultEnvironment?.clientId}`, created.apiKey);
    expect(elsewhere.status).toBe(404);
    const otherAccount = await call('/account?accountId=default', created.apiKey);
    expect(otherAccount.status).toBe(404);
    expect(await errorOf(otherAccount)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses account and organization creation with an API key: 403 with the error body', async () => {
    for (const [path, body] of [
      ['/accounts', { name: 'By key' }],
      ['/organizations', {}],
    ] as const) {
      const response = await post(path, key, body);
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(/people/),
      });
    }
  });

  it('takes a plan only with a source billing account the caller owns: 403 for one they only help run, 404 for another tenant’s or none', async () => {
    const plan = (sourceBillingAccountId: string) => ({
      name: 'Paid',
      plan: { tier: 'budget_50', sourceBillingAccountId },
    });
    const notOwned = await post('/accounts', owner, plan('shared'));
    expect(notOwned.status).toBe(403);
    expect(await errorOf(notOwned)).toMatchObject({ code: 'FORBIDDEN' });
    const anotherTenants = await post('/accounts', owner, plan('elsewhere'));
    expect(anotherTenants.status).toBe(404);
    expect(await errorOf(anotherTenants)).toMatchObject({ code: 'NOT_FOUND' });
    const own = await post('/accounts', owner, plan('team'));
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ name: 'Paid', status: 'active', subscriptionStatus: 'none' });
    const unknown = await post('/accounts', owner, plan('no-such-account'));
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ code: 'NOT_FOUND' });
    const badTier = await post('/accounts', owner, {
      name: 'X',
      plan: { tier: 'budget_7', sourceBillingAccountId: 'team' },
    });
    expect(badTier.status).toBe(400);
    expect(await errorOf(badTier)).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('keeps accounts apart: a key reads its own account, a member naming another account gets 404', async () => {
    expect(await pingram(key).account.getAccountDetails()).toMatchObject({
      accountId: 'default',
      organizationId: 'org_default',
    });
    const bobElsewhere = await call('/account?accountId=default', bob);
    expect(bobElsewhere.status).toBe(404);
    expect(await errorOf(bobElsewhere)).toMatchObject({ code: 'NOT_FOUND' });
    // Every route, named with an account the owner does not belong to.
    for (const [method, path, body] of [
      ['GET', '/account', undefined],
      ['POST', '/account', { name: 'Taken over' }],
      ['GET', '/account/organization', undefined],
      ['GET', '/accounts', undefined],
      ['POST', '/accounts', { name: 'Inside' }],
      ['POST', '/organizations', {}],
    ] as const) {
      const response = await call(`${path}?accountId=elsewhere`, owner, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
      expect(await errorOf(response)).toMatchObject({ code: 'NOT_FOUND' });
    }
    const keyListing = (await (await call('/accounts', key)).json()) as Listed;
    expect(keyListing.accounts).toEqual([expect.objectContaining({ accountId: 'default', role: 'admin' })]);
  });

  it('lets an admin rename the account and only an owner set autoUpgrade; a member gets 403 with the body', async () => {
    const asMember = await post('/account?accountId=team', bob, { name: 'Bob was here' });
    expect(asMember.status).toBe(403);
    expect(await errorOf(asMember)).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/admin/),
    });
    const renamed = await post('/account?accountId=shared', owner, { name: 'Shared, renamed' });
    expect(await renamed.json()).toMatchObject({ accountId: 'shared', name: 'Shared, renamed' });
    const upgrade = await post('/account?accountId=shared', owner, { autoUpgrade: true });
    expect(upgrade.status).toBe(403);
    expect(await errorOf(upgrade)).toMatchObject({ code: 'FORBIDDEN' });
    const asOwner = await post('/account?accountId=team', owner, { autoUpgrade: true });
    expect(await asOwner.json()).toMatchObject({ accountId: 'team', autoUpgrade: true });
    expect(await pingram(key).account.updateAccount({ name: 'Default, renamed' })).toMatchObject({
      accountId: 'default',
      name: 'Default, renamed',
    });
    expect((await post('/account', key, { autoUpgrade: false })).status).toBe(403);
  });

  it('answers the organization: the default one made on first start, an older account’s made on first use', async () => {
    expect(await pingram(key).account.getOrganization()).toMatchObject({
      organizationId: 'org_default',
      organizationType: 'free',
      messagesCap: 0,
      costCap: 0,
      allowOverage: true,
      anniversaryDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    // A JWT without accountId acts in the member's first account: `team`, stored before organizations.
    const [first] = ((await (await call('/accounts', owner)).json()) as Listed).accounts;
    expect(first?.accountId).toBe('team');
    expect(await pingram(owner).account.getOrganization()).toMatchObject({
      organizationId: 'org_team',
      name: 'Account team',
    });
  });

  it('creates an organization with a new account owned by the member, up to MAX_ACCOUNTS_PER_MEMBER', async () => {
    const created = await pingram(bob).organization.create();
    expect(created).toMatchObject({
      success: true,
      accountId: expect.any(String),
      organizationId: expect.any(String),
    });
    const organization = await call(`/account/organization?accountId=${created.accountId}`, bob);
    expect(await organization.json()).toMatchObject({ organizationId: created.organizationId, name: BOB });
    const bobs = (await (await call('/accounts', bob)).json()) as Listed;
    expect(bobs.accounts).toContainEqual(
      expect.objectContaining({
        accountId: created.accountId,
        role: 'owner',
        organizationId: created.organizationId,
      }),
    );
    await pingram(bob).organization.create();
    await pingram(bob).organization.create();
    const past = await post('/organizations', bob, {});
    expect(past.status).toBe(400);
    expect(await errorOf(past)).toMatchObject({ code: 'LIMIT_REACHED' });
  });
});
