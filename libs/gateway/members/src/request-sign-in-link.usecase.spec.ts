import { eventually } from '@notify/testing';
import { InvalidRequestError, RateLimitedError } from '@notify/util';
import { hashToken } from './signed-tokens';
import { type ConsoleHarness, consoleHarness } from './testing/console.harness';

describe('RequestSignInLinkUseCase', () => {
  let h: ConsoleHarness;
  beforeEach(async () => {
    h = await consoleHarness();
  });
  afterEach(() => h.close());

  let addresses = 0;
  const ask = (email: string, address = `192.0.2.${++addresses}`) =>
    h.requestLink.execute({ email, address });
  /** The token of the last sign-in link mailed to `to`. */
  const mailedToken = (to: string) =>
    eventually(() => {
      const mailed = h.sent.filter((s) => s.send.userId === to).at(-1);
      const token = JSON.stringify(mailed?.send ?? {}).match(/console\/sign-in#token=([A-Za-z0-9_-]+)/)?.[1];
      if (token === undefined) throw new Error(`no sign-in link mailed to ${to}`);
      return token;
    });

  it('mails a member a single-use link to the console, the token in its fragment, kept only as a hash', async () => {
    await h.join('ann@example.com', 'member');
    expect(await ask(' Ann@Example.com ')).toEqual({
      message: 'If ann@example.com belongs to a member, a sign-in link is on its way.',
    });
    const token = await mailedToken('ann@example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [mail] = h.sent;
    expect(mail).toMatchObject({ accountId: 'acct-1', envId: 'env-1', source: 'email' });
    expect(mail?.request).not.toContain(token);
    expect(mail?.send).toMatchObject({
      sensitive: true,
      email: { subject: 'Sign in to the Notify console' },
    });
    expect(JSON.stringify(mail)).toContain('notify_console_sign_in');
    expect(JSON.stringify(mail)).toContain(`https://notify.example/base/console/sign-in#token=${token}`);
    expect(await h.links.redeem(hashToken(token))).toEqual({
      outcome: 'redeemed',
      record: { userId: expect.stringMatching(/^usr_/), email: 'ann@example.com' },
    });
  });

  it('answers a stranger, and a person of no account, exactly as a member, and mails them nothing', async () => {
    await h.join('ann@example.com', 'member');
    await h.people.findOrCreate('left@example.com', '2026-01-01T00:00:00.000Z');
    const answers = [
      await ask('nobody@example.com'),
      await ask('left@example.com'),
      await ask('ann@example.com'),
    ];
    expect(answers.map((a) => a.message.replace(/^If \S+/, 'If x'))).toEqual(
      Array(3).fill('If x belongs to a member, a sign-in link is on its way.'),
    );
    await mailedToken('ann@example.com');
    expect(h.sent.map((s) => s.send.userId)).toEqual(['ann@example.com']);
  });

  it('allows 3 requests per email in 15 minutes, whatever its case, then 429 until the window ends', async () => {
    for (const email of ['ann@example.com', 'ANN@example.com', 'ann@EXAMPLE.com']) await ask(email);
    const refused = ask('Ann@example.com');
    await expect(refused).rejects.toBeInstanceOf(RateLimitedError);
    await expect(refused).rejects.toMatchObject({
      code: 'TOO_MANY_SIGN_IN_REQUESTS',
      message: 'At most 3 sign-in links may be asked for one email address per 15 minutes.',
    });
    await ask('bob@example.com');
    h.clock.advance(15 * 60_000);
    await expect(ask('ann@example.com')).resolves.toMatchObject({ message: expect.any(String) });
  });

  it('allows 10 requests a minute from one address, then 429 with the time left', async () => {
    for (let i = 0; i < 10; i++) await ask(`person-${i}@example.com`, '203.0.113.5');
    const refused = ask('other@example.com', '203.0.113.5');
    await expect(refused).rejects.toMatchObject({ code: 'TOO_MANY_SIGN_IN_REQUESTS' });
    expect(((await refused.catch((e: unknown) => e)) as RateLimitedError).retryAfterSeconds).toBeGreaterThan(
      0,
    );
    await ask('other@example.com', '203.0.113.6');
  });

  it('is off (400 CONSOLE_LINK_SIGN_IN_OFF) without JWT_SECRET, mailing nothing', async () => {
    const off = await consoleHarness({ JWT_SECRET: '' });
    try {
      await off.join('ann@example.com', 'member');
      const refused = off.requestLink.execute({ email: 'ann@example.com', address: '192.0.2.1' });
      await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
      await expect(refused).rejects.toMatchObject({ code: 'CONSOLE_LINK_SIGN_IN_OFF' });
      expect(off.sent).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
