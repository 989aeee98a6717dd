import { aMemberToken, eventually } from '@notify/testing';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type AllInOne, bootstrapKey, callAs, startAllInOne, statusAndCode } from './all-in-one';

const OTHER_ACCOUNT = 'acct-other';
const COOKIE = '__Host-notify_session';
const CONSOLE = { 'x-notify-console': '1' };

/**
 * Members' console sessions over HTTP, against the all-in-one service started without JWT_SECRET
 * (so it makes its own, as `npm start` does): a mailed sign-in link, read from the dev outbox, is
 * exchanged for the session cookie, which then authenticates API calls like a member's JWT. A
 * second account stands for another tenant.
 */
describe('console sessions (all-in-one)', () => {
  let app: AllInOne;
  let base: string;
  let key: string;
  let envId: string;
  let owner: string;
  let otherOwner: string;

  const call = (path: string, as: string | null, init: RequestInit = {}) => callAs(base, path, as, init);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, null, { method: 'POST', body: JSON.stringify(body), headers });
  /** A request carrying only the session cookie (and `headers`), as the console sends it. */
  const withCookie = (path: string, session: string, init: RequestInit = {}, headers: object = CONSOLE) =>
    call(path, null, { ...init, headers: { cookie: `${COOKIE}=${session}`, ...headers } });

  /** The dev outbox of an environment: the key's own, or `?envId=` of a member's JWT. */
  const outboxOf =
    (as: string, query = '') =>
    () =>
      call(`/dev/outbox/email${query}`, as);
  /** The newest token (`?token=` or `#token=`) of a `path` link mailed to `to`, other than `seen`. */
  const mailedToken = (to: string, path: string, seen: readonly string[] = [], outbox = outboxOf(key)) =>
    eventually(async () => {
      const { messages } = (await (await outbox()).json()) as { messages: unknown[] };
      const token = messages
        .map((m) => JSON.stringify(m))
        .filter((m) => m.includes(to))
        .flatMap((m) =>
          [...m.matchAll(new RegExp(`${path}[?#]token=([A-Za-z0-9_.-]+)`, 'g'))].map((x) => x[1] ?? ''),
        )
        .find((t) => !seen.includes(t));
      if (token === undefined) throw new Error(`no ${path} link mailed to ${to} yet`);
      return token;
    }, 20_000);
  const mailsTo = async (to: string, outbox = outboxOf(key)) => {
    const { messages } = (await (await outbox()).json()) as { messages: unknown[] };
    return messages.filter((m) => JSON.stringify(m).includes(to)).length;
  };

  /** The sign-in links read so far (the outbox lists the newest first). */
  const seen: string[] = [];
  /** Signs `email` in by link: asks for it, reads it from the outbox and exchanges it. */
  const signInByLink = async (email: string) => {
    expect((await post('/console/sign-in', { email })).status).toBe(200);
    const token = await mailedToken(email, 'console/sign-in', seen);
    seen.push(token);
    const started = await post('/console/session', { token });
    expect(started.status).toBe(200);
    return { token, started, session: sessionOf(started) };
  };
  const sessionOf = (response: Response): string => {
    const value = response.headers.get('set-cookie')?.match(new RegExp(`^${COOKIE}=([^;]+);`))?.[1];
    if (value === undefined) throw new Error('no session cookie set');
    return value;
  };

  beforeAll(async () => {
    app = await startAllInOne('notify-console-session-', {
      env: { JWT_SECRET: '' },
      tenants: [
        {
          accountId: OTHER_ACCOUNT,
          environments: [{ envId: 'env-other' }],
          members: [{ email: 'boss@other.example', role: 'owner' }],
        },
      ],
    });
    base = app.baseUrl;
    key = await bootstrapKey(app);
    const secret = (await readFile(join(app.dataDir, 'jwt.secret'), 'utf8')).trim();
    owner = aMemberToken({ email: 'owner@notify.localhost', secret });
    otherOwner = aMemberToken({ email: 'boss@other.example', secret });
    const [environment] = (await (await call('/environments', key)).json()) as { clientId: string }[];
    envId = environment?.clientId ?? '';
    // Ann joins the default account as a member, by invitation.
    expect(
      (await call('/members', owner, { method: 'POST', body: JSON.stringify({ email: 'ann@example.com' }) }))
        .status,
    ).toBe(200);
    const invitation = await mailedToken('ann@example.com', 'accept_invite');
    expect((await post('/profile/accept_invite', { token: invitation })).status).toBe(200);
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('makes its own JWT_SECRET when none is given, readable by the service’s user only', async () => {
    const file = await stat(join(app.dataDir, 'jwt.secret'));
    expect(file.mode & 0o777).toBe(0o600);
    // The owner's token signed with it (as `npm run member-token` prints) is accepted.
    expect((await call('/members', owner)).status).toBe(200);
  });

  it('signs a member in by a mailed link, once, and the cookie then acts as the member in ?envId=', async () => {
    const { token, started, session } = await signInByLink('ann@example.com');
    expect(await started.json()).toEqual({
      userId: expect.stringMatching(/^usr_/),
      email: 'ann@example.com',
      accounts: [{ accountId: 'default', role: 'member' }],
    });
    expect(started.headers.get('set-cookie')).toBe(
      `${COOKIE}=${session}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=43200`,
    );
    expect(started.headers.get('cache-control')).toBe('no-store');
    expect(await statusAndCode(await post('/console/session', { token }))).toEqual({
      status: 400,
      code: 'TOKEN_USED',
    });

    const types = await withCookie(`/types?envId=${envId}`, session);
    expect(types.status).toBe(200);
    expect(await types.json()).toEqual(expect.any(Array));
    expect(await statusAndCode(await withCookie('/types', session))).toEqual({
      status: 400,
      code: 'MISSING_ENV_ID',
    });
    const who = await withCookie('/console/session', session);
    expect(await who.json()).toEqual({
      kind: 'member',
      userId: expect.stringMatching(/^usr_/),
      email: 'ann@example.com',
      accounts: [{ accountId: 'default', role: 'member' }],
    });
  });

  it('refuses the cookie (401) without the console header or from another origin', async () => {
    const { session } = await signInByLink('ann@example.com');
    const path = `/types?envId=${envId}`;
    expect(await statusAndCode(await withCookie(path, session, {}, {}))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(
      await statusAndCode(
        await withCookie(path, session, {}, { ...CONSOLE, origin: 'https://evil.example' }),
      ),
    ).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    expect((await withCookie(path, session, {}, { ...CONSOLE, origin: new URL(base).origin })).status).toBe(
      200,
    );
    // An Authorization header wins over the cookie.
    expect(
      await (
        await call('/console/session', key, { headers: { cookie: `${COOKIE}=${session}`, ...CONSOLE } })
      ).json(),
    ).toEqual({
      kind: 'key',
      accountId: 'default',
      envId,
    });
  });

  it('holds a session to its member’s role (403) and accounts (404 for another tenant’s)', async () => {
    const { session } = await signInByLink('ann@example.com');
    const create = await withCookie(`/types?envId=${envId}`, session, {
      method: 'POST',
      body: JSON.stringify({ notificationId: 'console-made' }),
    });
    expect(await statusAndCode(create)).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(await statusAndCode(await withCookie('/types?envId=env-other', session))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await statusAndCode(await withCookie(`/members?accountId=${OTHER_ACCOUNT}`, session))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('exchanges an owner’s JWT for a session, and signs it out on every request after', async () => {
    const started = await post('/console/session', { jwt: owner });
    expect(await started.json()).toEqual({
      userId: expect.any(String),
      email: 'owner@notify.localhost',
      accounts: [{ accountId: 'default', role: 'owner' }],
    });
    const session = sessionOf(started);
    expect((await withCookie('/members', session)).status).toBe(200);
    const out = await withCookie('/console/sign-out', session, { method: 'POST' });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ success: true });
    expect(out.headers.get('set-cookie')).toBe(
      `${COOKIE}=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0`,
    );
    expect(await statusAndCode(await withCookie('/console/session', session))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(await statusAndCode(await post('/console/session', { jwt: 'not.a.jwt' }))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('answers a stranger exactly as a member, mailing them nothing; bad bodies are 400', async () => {
    const stranger = await post('/console/sign-in', { email: 'stranger@example.com' });
    const member = await post('/console/sign-in', { email: 'boss@other.example' });
    expect([stranger.status, member.status]).toEqual([200, 200]);
    const messages = [await stranger.json(), await member.json()] as { message: string }[];
    expect(messages.map((m) => m.message.replace(/^If \S+ /, 'If x '))).toEqual([
      'If x belongs to a member, a sign-in link is on its way.',
      'If x belongs to a member, a sign-in link is on its way.',
    ]);
    // Each member's link comes from a live environment of their account.
    const otherOutbox = outboxOf(otherOwner, '?envId=env-other');
    await mailedToken('boss@other.example', 'console/sign-in', [], otherOutbox);
    expect(await mailsTo('stranger@example.com')).toBe(0);
    expect(await mailsTo('stranger@example.com', otherOutbox)).toBe(0);
    for (const [path, body] of [
      ['/console/sign-in', { email: 'not an address' }],
      ['/console/session', {}],
      ['/console/session', { token: 'a', jwt: owner }],
    ] as const)
      expect(await statusAndCode(await post(path, body))).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(await statusAndCode(await post('/console/session', { token: 'x'.repeat(43) }))).toEqual({
      status: 400,
      code: 'INVALID_TOKEN',
    });
  });

  it('allows 3 link requests per email in 15 minutes (429 after, with the error body)', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post('/console/sign-in', { email: 'Carl@example.com' })).status).toBe(200);
    const refused = await post('/console/sign-in', { email: 'carl@EXAMPLE.com' });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await statusAndCode(refused)).toEqual({ status: 429, code: 'TOO_MANY_SIGN_IN_REQUESTS' });
  });
});
