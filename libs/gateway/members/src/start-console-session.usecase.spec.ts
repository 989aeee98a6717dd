import { ConsoleSessionTokens } from '@notify/gateway-auth';
import { aMemberToken, eventually } from '@notify/testing';
import { ForbiddenError, InvalidRequestError, RateLimitedError, UnauthorizedError } from '@notify/util';
import { type ConsoleHarness, consoleHarness } from './testing/console.harness';

describe('StartConsoleSessionUseCase', () => {
  let h: ConsoleHarness;
  beforeEach(async () => {
    h = await consoleHarness({ AUTH_FAILURES_PER_MINUTE: '5' });
  });
  afterEach(() => h.close());

  /** A sign-in link's token for `email`, asked for as the console does. */
  const linkFor = async (email: string) => {
    await h.requestLink.execute({ email, address: '192.0.2.1' });
    return eventually(() => {
      const mailed = h.sent.filter((s) => s.send.userId === email).at(-1);
      const token = JSON.stringify(mailed?.send ?? {}).match(/#token=([A-Za-z0-9_-]+)/)?.[1];
      if (token === undefined) throw new Error(`no link mailed to ${email}`);
      return token;
    });
  };
  const seconds = () => Math.floor(h.clock.now() / 1000);
  const jwt = (email: string) => aMemberToken({ email, claims: { iat: seconds(), exp: seconds() + 600 } });

  it('exchanges a link for a session of its member, listing their accounts and roles', async () => {
    const annId = await h.join('ann@example.com', 'admin');
    await h.accounts.createAccount({
      accountId: 'acct-2',
      name: 'Other',
      createdAt: '2026-01-03T00:00:00.000Z',
    });
    await h.memberships.add({
      accountId: 'acct-2',
      userId: annId,
      role: 'owner',
      createdAt: '2026-01-03T00:00:00.000Z',
      updatedAt: '2026-01-03T00:00:00.000Z',
    });
    const started = await h.startSession.execute({ token: await linkFor('ann@example.com') }, '192.0.2.9');
    expect(started.member).toEqual({
      userId: annId,
      email: 'ann@example.com',
      accounts: [
        { accountId: 'acct-1', role: 'admin' },
        { accountId: 'acct-2', role: 'owner' },
      ],
    });
    expect(await h.sessions.verify(started.token)).toEqual({
      userId: annId,
      email: 'ann@example.com',
      sid: expect.any(String),
      exp: seconds() + 43_200,
    });
  });

  it('spends a link once (400 TOKEN_USED after) and knows no other (400 INVALID_TOKEN)', async () => {
    await h.join('ann@example.com', 'member');
    const token = await linkFor('ann@example.com');
    await h.startSession.execute({ token }, '192.0.2.9');
    const again = h.startSession.execute({ token }, '192.0.2.9');
    await expect(again).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(again).rejects.toMatchObject({ code: 'TOKEN_USED' });
    await expect(h.startSession.execute({ token: 'x'.repeat(43) }, '192.0.2.9')).rejects.toMatchObject({
      code: 'INVALID_TOKEN',
    });
  });

  it('refuses (403) a link of someone who has left every account since, spending it', async () => {
    const annId = await h.join('ann@example.com', 'member');
    const token = await linkFor('ann@example.com');
    await h.memberships.remove('acct-1', annId);
    await expect(h.startSession.execute({ token }, '192.0.2.9')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(h.startSession.execute({ token }, '192.0.2.9')).rejects.toMatchObject({
      code: 'TOKEN_USED',
    });
  });

  it('exchanges an identity provider’s JWT as a bearer JWT is checked: 401 when bad, 403 for a stranger', async () => {
    const annId = await h.join('ann@example.com', 'member');
    const started = await h.startSession.execute({ jwt: jwt('ann@example.com') }, '192.0.2.9');
    expect(started.member).toMatchObject({
      userId: annId,
      accounts: [{ accountId: 'acct-1', role: 'member' }],
    });
    expect(await h.people.get(annId)).toMatchObject({ sub: 'sub-ann@example.com' });
    const forged = aMemberToken({ email: 'ann@example.com', secret: 'w'.repeat(40) });
    await expect(h.startSession.execute({ jwt: forged }, '192.0.2.9')).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(
      h.startSession.execute({ jwt: jwt('nobody@example.com') }, '192.0.2.9'),
    ).rejects.toBeInstanceOf(ForbiddenError);
    // A session token is no identity provider's JWT.
    await expect(h.startSession.execute({ jwt: started.token }, '192.0.2.9')).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });

  it('counts unknown links and bad JWTs among the address’s failed authentications (429 past the limit)', async () => {
    for (let i = 0; i < 5; i++)
      await expect(h.startSession.execute({ token: `guess-${i}` }, '203.0.113.1')).rejects.toMatchObject({
        code: 'INVALID_TOKEN',
      });
    await expect(h.startSession.execute({ jwt: 'a.b.c' }, '203.0.113.1')).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    await expect(h.startSession.execute({ token: 'guess' }, '203.0.113.1')).rejects.toMatchObject({
      code: 'TOO_MANY_FAILED_AUTHENTICATIONS',
    });
    await expect(h.startSession.execute({ token: 'guess' }, '203.0.113.2')).rejects.toMatchObject({
      code: 'INVALID_TOKEN',
    });
  });

  it('is off without JWT_SECRET (400), for links and JWTs alike', async () => {
    const off = await consoleHarness({ JWT_SECRET: '' });
    try {
      expect(new ConsoleSessionTokens(off.config, off.clock, off.links).enabled).toBe(false);
      await expect(off.startSession.execute({ token: 't' }, '192.0.2.9')).rejects.toMatchObject({
        code: 'CONSOLE_LINK_SIGN_IN_OFF',
      });
      await expect(
        off.startSession.execute({ jwt: jwt('owner@example.com') }, '192.0.2.9'),
      ).rejects.toMatchObject({ code: 'CONSOLE_SESSIONS_OFF' });
    } finally {
      await off.close();
    }
  });
});
