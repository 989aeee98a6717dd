import { aMemberToken, eventually } from '@notify/testing';
import { type AllInOne, bootstrapKey, callAs, pingramIn, startAllInOne, statusAndCode } from './all-in-one';

const OTHER_ACCOUNT = 'acct-other';
const OTHER_OWNER = 'boss@other.example';

/**
 * Members, invitations and the profile operations through the pingram client, with a member's JWT
 * and with an API key (which lists members and nothing more), against the all-in-one service as `npm start` runs it (invitations reach its
 * local mail catcher). A second account, written into the data directory before the service
 * starts, stands for another tenant.
 */
describe('members, invitations and profile (all-in-one)', () => {
  let app: AllInOne;
  let base: string;
  let key: string;
  let otherOwnerId: string;

  const jwt = (email: string, sub = `sub-${email}`) => aMemberToken({ email, sub });
  const owner = () => jwt('owner@notify.localhost');
  const pingram = (apiKey: string) => pingramIn(base, apiKey);
  const call = (path: string, as: string | null, init: RequestInit = {}) => callAs(base, path, as, init);
  const post = (path: string, as: string | null, body: unknown, method = 'POST') =>
    call(path, as, { method, body: JSON.stringify(body) });
  const errorOf = statusAndCode;
  const members = async (as: string) =>
    (await pingram(as).members.listMembers('unused')).map((m) => ({
      email: m.email,
      role: m.groups?.[0],
      userId: m.userId,
    }));
  const memberId = async (email: string) =>
    (await members(owner())).find((m) => m.email === email)?.userId ?? '';

  /** The token of the newest link of `path` mailed to `to` (other than `seen`), from the dev outbox (newest first). */
  const mailedToken = (to: string, path: string, seen: string[] = []) =>
    eventually(async () => {
      const response = await call('/dev/outbox/email', key);
      const { messages } = (await response.json()) as { messages: unknown[] };
      const tokens = messages
        .map((m) => JSON.stringify(m))
        .filter((m) => m.includes(to))
        .flatMap((m) =>
          [...m.matchAll(new RegExp(`${path}\\?token=([A-Za-z0-9_.-]+)`, 'g'))].map((x) => x[1] ?? ''),
        );
      const token = tokens.find((t) => !seen.includes(t));
      if (token === undefined) throw new Error(`no ${path} link mailed to ${to} yet`);
      return token;
    }, 20_000);

  const inviteAndAccept = async (as: string, email: string, role?: 'admin' | 'member' | 'owner') => {
    await pingram(as).members.inviteMember('unused', { email, ...(role ? { role } : {}) });
    const token = await mailedToken(email, 'accept_invite');
    return { token, accepted: await pingram(as).profile.acceptInvite({ token }) };
  };

  beforeAll(async () => {
    // Another tenant: its owner and an environment, written while no service holds the store.
    app = await startAllInOne('notify-members-', {
      tenants: [
        {
          accountId: OTHER_ACCOUNT,
          name: 'Other',
          environments: [{ envId: 'env-other', title: 'Other' }],
          members: [{ email: OTHER_OWNER, role: 'owner' }],
        },
      ],
    });
    otherOwnerId = app.userIds.get(OTHER_OWNER) ?? '';
    base = app.baseUrl;
    key = await bootstrapKey(app);
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('lists the bootstrap owner, with a JWT and with an API key', async () => {
    const expected = [{ email: 'owner@notify.localhost', role: 'owner', userId: expect.any(String) }];
    expect(await members(owner())).toEqual(expected);
    expect(await members(key)).toEqual(expected);
    const [raw] = await pingram(owner()).members.listMembers('unused');
    expect(raw).toMatchObject({
      organizationId: 'org_default',
      accountId: 'default',
      createdAt: expect.any(String),
    });
  });

  it('invites by email through the local outbox; the link opens a page and its token makes a member once', async () => {
    await pingram(owner()).members.inviteMember('unused', { email: 'ann@example.com', role: 'admin' });
    const token = await mailedToken('ann@example.com', 'accept_invite');
    expect(await members(owner())).toHaveLength(1);

    // Opening the link (as a mail scanner would) changes nothing: the page's button POSTs the token.
    const page = await call(`/profile/accept_invite?token=${token}`, null);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain(`value="${token}"`);

    expect(await pingram(owner()).profile.acceptInvite({ token })).toEqual({
      success: true,
      accountId: 'default',
      userExists: false,
      inviteeEmail: 'ann@example.com',
    });
    expect(await errorOf(await post('/profile/accept_invite', null, { token }))).toEqual({
      status: 400,
      code: 'TOKEN_USED',
    });
    // The new member acts with their own JWT.
    expect(await members(jwt('ann@example.com'))).toEqual(
      expect.arrayContaining([{ email: 'ann@example.com', role: 'admin', userId: expect.any(String) }]),
    );
  });

  it('accepts the form the page posts', async () => {
    await pingram(owner()).members.inviteMember('unused', { email: 'bob@example.com' });
    const token = await mailedToken('bob@example.com', 'accept_invite');
    const accepted = await fetch(`${base}/profile/accept_invite`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(accepted.status).toBe(200);
    expect(await members(jwt('bob@example.com'))).toEqual(
      expect.arrayContaining([{ email: 'bob@example.com', role: 'member', userId: expect.any(String) }]),
    );
  });

  it('refuses forged tokens, and the link a newer invitation replaced', async () => {
    const forged = await post('/profile/accept_invite', null, { token: 'eyJwdXJwb3NlIjoiaW52aXRlIn0.AAAA' });
    expect(await errorOf(forged)).toEqual({ status: 400, code: 'INVALID_TOKEN' });
    await pingram(owner()).members.inviteMember('unused', { email: 'carl@example.com' });
    const first = await mailedToken('carl@example.com', 'accept_invite');
    await pingram(owner()).members.inviteMember('unused', { email: 'carl@example.com' });
    const second = await mailedToken('carl@example.com', 'accept_invite', [first]);
    expect(second).not.toBe(first);
    expect(await errorOf(await post('/profile/accept_invite', null, { token: first }))).toEqual({
      status: 400,
      code: 'TOKEN_USED',
    });
    const tampered = `${second.slice(0, -2)}${second.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await errorOf(await post('/profile/accept_invite', null, { token: tampered }))).toEqual({
      status: 400,
      code: 'INVALID_TOKEN',
    });
    expect((await pingram(owner()).profile.acceptInvite({ token: second })).userExists).toBe(false);
  });

  it('refuses inviting a member again (409), bad bodies (400), and invitations beyond the role (403)', async () => {
    expect(await errorOf(await post('/members', owner(), { email: 'ann@example.com' }))).toEqual({
      status: 409,
      code: 'ALREADY_MEMBER',
    });
    expect(await errorOf(await post('/members', owner(), { email: 'not an address' }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    expect(await errorOf(await post('/members', owner(), { email: 'x@example.com', role: 'root' }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    // An admin may invite, but not an owner; a member may not invite; an API key may not invite at all.
    expect(
      await errorOf(
        await post('/members', jwt('ann@example.com'), { email: 'x@example.com', role: 'owner' }),
      ),
    ).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await errorOf(await post('/members', jwt('bob@example.com'), { email: 'x@example.com' }))).toEqual(
      {
        status: 403,
        code: 'FORBIDDEN',
      },
    );
    for (const role of ['member', 'admin', 'owner'])
      expect(await errorOf(await post('/members', key, { email: 'x@example.com', role }))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
  });

  it('lets only owners change roles (403 for an admin and for an API key)', async () => {
    const bob = await memberId('bob@example.com');
    expect(
      await errorOf(await post(`/members/${bob}`, jwt('ann@example.com'), { role: 'admin' }, 'PATCH')),
    ).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await errorOf(await post(`/members/${bob}`, key, { role: 'admin' }, 'PATCH'))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await pingram(owner()).members.update('unused', bob, { role: 'admin' })).toEqual({
      success: true,
    });
    expect(await pingram(owner()).members.update('unused', bob, { role: 'member' })).toEqual({
      success: true,
    });
    expect((await members(owner())).find((m) => m.userId === bob)?.role).toBe('member');
  });

  it('never lets the last owner go, even when two owners demote each other at once', async () => {
    const self = await memberId('owner@notify.localhost');
    expect(await errorOf(await post(`/members/${self}`, owner(), {}, 'DELETE'))).toEqual({
      status: 400,
      code: 'LAST_OWNER',
    });
    expect(await errorOf(await post(`/members/${self}`, owner(), { role: 'admin' }, 'PATCH'))).toEqual({
      status: 400,
      code: 'LAST_OWNER',
    });
    const ann = await memberId('ann@example.com');
    await pingram(owner()).members.update('unused', ann, { role: 'owner' });
    const answers = await Promise.all([
      post(`/members/${self}`, jwt('ann@example.com'), { role: 'admin' }, 'PATCH'),
      post(`/members/${ann}`, owner(), { role: 'admin' }, 'PATCH'),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const owners = (await members(key)).filter((m) => m.role === 'owner');
    expect(owners).toHaveLength(1);
    // Back to the bootstrap owner alone (ann an admin again).
    const remaining = owners[0]?.email === 'ann@example.com' ? jwt('ann@example.com') : owner();
    await pingram(remaining).members.update('unused', self, { role: 'owner' });
    await pingram(owner()).members.update('unused', ann, { role: 'admin' });
    expect((await members(key)).filter((m) => m.role === 'owner').map((m) => m.email)).toEqual([
      'owner@notify.localhost',
    ]);
  });

  it('removes members: admins others, only owners an owner, and anyone themselves', async () => {
    const self = await memberId('owner@notify.localhost');
    expect(await errorOf(await post(`/members/${self}`, jwt('ann@example.com'), {}, 'DELETE'))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    const ann = await memberId('ann@example.com');
    expect(await errorOf(await post(`/members/${ann}`, jwt('bob@example.com'), {}, 'DELETE'))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    const { accepted } = await inviteAndAccept(owner(), 'dora@example.com');
    expect(accepted.success).toBe(true);
    const dora = await memberId('dora@example.com');
    expect(await pingram(jwt('dora@example.com')).members.removeMember('unused', dora)).toEqual({
      success: true,
    });
    expect(await errorOf(await call('/members', jwt('dora@example.com')))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    await inviteAndAccept(owner(), 'eve@example.com');
    const eve = await memberId('eve@example.com');
    // An API key lists members but never removes one.
    expect(await errorOf(await post(`/members/${eve}`, key, {}, 'DELETE'))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await pingram(owner()).members.removeMember('unused', eve)).toEqual({ success: true });
    expect((await members(owner())).map((m) => m.email)).not.toContain('eve@example.com');
  });

  it('lists pending invitations to admins and revokes one, whose link then stops working', async () => {
    await pingram(owner()).members.inviteMember('unused', { email: 'ivan@example.com', role: 'admin' });
    const token = await mailedToken('ivan@example.com', 'accept_invite');
    const listed = await call('/members/invitations', owner());
    const { invitations } = (await listed.json()) as { invitations: Record<string, unknown>[] };
    expect(invitations).toContainEqual(
      expect.objectContaining({ email: 'ivan@example.com', role: 'admin', invitedBy: expect.any(String) }),
    );
    expect(JSON.stringify(invitations)).not.toContain(token);
    expect(JSON.stringify(invitations)).not.toMatch(/tokenHash/);
    // Another tenant neither sees nor revokes it; an API key lists but may not revoke.
    const theirs = (await (await call('/members/invitations', jwt(OTHER_OWNER))).json()) as {
      invitations: { email: string }[];
    };
    expect(theirs.invitations.map((i) => i.email)).not.toContain('ivan@example.com');
    expect(
      await errorOf(await post('/members/invitations/ivan@example.com', jwt(OTHER_OWNER), {}, 'DELETE')),
    ).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect((await call('/members/invitations', key)).status).toBe(200);
    expect(await errorOf(await post('/members/invitations/ivan@example.com', key, {}, 'DELETE'))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    // A plain member may do neither.
    await inviteAndAccept(owner(), 'mia@example.com');
    expect(await errorOf(await call('/members/invitations', jwt('mia@example.com')))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    const revoked = await post('/members/invitations/ivan@example.com', owner(), {}, 'DELETE');
    expect(await revoked.json()).toEqual({ success: true });
    expect(await errorOf(await post('/profile/accept_invite', null, { token }))).toEqual({
      status: 400,
      code: 'TOKEN_USED',
    });
  });

  it("answers 404 for another account's member and environment", async () => {
    expect(await errorOf(await post(`/members/${otherOwnerId}`, owner(), {}, 'DELETE'))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(
      await errorOf(await post(`/members/${otherOwnerId}`, owner(), { role: 'member' }, 'PATCH')),
    ).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(
      await errorOf(await post('/members?envId=env-other', owner(), { email: 'z@example.com' })),
    ).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    // The other account's owner sees only their own account.
    expect(await members(jwt(OTHER_OWNER))).toEqual([
      { email: OTHER_OWNER, role: 'owner', userId: otherOwnerId },
    ]);
    expect(
      await errorOf(
        await post(`/members/${await memberId('ann@example.com')}`, jwt(OTHER_OWNER), {}, 'DELETE'),
      ),
    ).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('auto-joins people of a domain as members on first sign-in, for one account only', async () => {
    expect(await errorOf(await call('/members/autojoin', jwt('bob@example.com')))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await errorOf(await post('/members/autojoin', owner(), { domains: ['*.corp'] }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    // Only the domain of the caller's own sign-in email, and never with an API key.
    expect(await errorOf(await post('/members/autojoin', owner(), { domains: ['corp.example'] }))).toEqual({
      status: 400,
      code: 'DOMAIN_NOT_VERIFIED',
    });
    expect(await errorOf(await post('/members/autojoin', key, { domains: ['corp.example'] }))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    await inviteAndAccept(owner(), 'cora@corp.example', 'admin');
    const cora = jwt('cora@corp.example');
    expect(await pingram(cora).members.setAutoJoin('unused', { domains: ['Corp.Example'] })).toEqual({
      organizationId: 'org_default',
      domains: ['corp.example'],
    });
    expect(await pingram(key).members.getAutoJoin('unused')).toEqual({
      organizationId: 'org_default',
      domains: ['corp.example'],
    });
    expect(
      await errorOf(await post('/members/autojoin', jwt(OTHER_OWNER), { domains: ['corp.example'] })),
    ).toEqual({
      status: 400,
      code: 'DOMAIN_NOT_VERIFIED',
    });
    expect(await errorOf(await call('/members', jwt('stranger@elsewhere.example')))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await members(jwt('frank@corp.example'))).toEqual(
      expect.arrayContaining([{ email: 'frank@corp.example', role: 'member', userId: expect.any(String) }]),
    );
  });

  it('spends an invitation without effect once its inviter may no longer grant the role', async () => {
    await inviteAndAccept(owner(), 'hal@example.com', 'owner');
    await pingram(jwt('hal@example.com')).members.inviteMember('unused', {
      email: 'ivy@example.com',
      role: 'owner',
    });
    const token = await mailedToken('ivy@example.com', 'accept_invite');
    await pingram(owner()).members.update('unused', await memberId('hal@example.com'), { role: 'admin' });
    expect(await errorOf(await post('/profile/accept_invite', null, { token }))).toEqual({
      status: 400,
      code: 'INVITATION_REVOKED',
    });
    expect((await members(owner())).map((m) => m.email)).not.toContain('ivy@example.com');
  });

  it('changes an email only once the link mailed to the new address is followed', async () => {
    const bobJwt = jwt('bob@example.com');
    expect(await errorOf(await post('/profile/change-email', key, { newEmail: 'bob2@example.com' }))).toEqual(
      {
        status: 403,
        code: 'FORBIDDEN',
      },
    );
    expect(
      await errorOf(await post('/profile/change-email', bobJwt, { newEmail: 'ann@example.com' })),
    ).toEqual({
      status: 409,
      code: 'EMAIL_TAKEN',
    });
    expect(await pingram(bobJwt).profile.changeEmail({ newEmail: 'bob2@example.com' })).toEqual({
      success: true,
    });
    expect((await members(owner())).map((m) => m.email)).toContain('bob@example.com');
    const token = await mailedToken('bob2@example.com', 'change-email/confirm');
    const page = await call(`/profile/change-email/confirm?token=${token}`, null);
    expect(await page.text()).toContain('<form method="post"');
    expect((await members(owner())).map((m) => m.email)).toContain('bob@example.com');

    expect(await (await post('/profile/change-email/confirm', null, { token })).json()).toEqual({
      success: true,
      email: 'bob2@example.com',
    });
    expect(await errorOf(await post('/profile/change-email/confirm', null, { token }))).toEqual({
      status: 400,
      code: 'TOKEN_USED',
    });
    const emails = (await members(owner())).map((m) => m.email);
    expect(emails).toContain('bob2@example.com');
    expect(emails).not.toContain('bob@example.com');
    // The same identity (sub) signs in with tokens for the new email.
    expect(await members(jwt('bob2@example.com', 'sub-bob@example.com'))).toEqual(expect.any(Array));
  });
});
