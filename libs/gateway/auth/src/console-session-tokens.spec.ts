import { ConsoleSignInLinksStore, EmbeddedCoordinationStore } from '@notify/cache';
import { loadAppConfig } from '@notify/platform';
import { FakeClock, TEST_JWT_SECRET, tempDir, testLogger } from '@notify/testing';
import { decodeJwt, UnauthorizedError, verifyJwt } from '@notify/util';
import { ConsoleSessionTokens } from './console-session-tokens';

describe('ConsoleSessionTokens', () => {
  const clock = new FakeClock();
  let coordination: EmbeddedCoordinationStore;
  let remove: () => Promise<void>;
  let tokens: ConsoleSessionTokens;
  const ann = { userId: 'usr_ann', email: 'ann@example.com' };

  beforeEach(async () => {
    const dir = await tempDir('notify-console-tokens-');
    remove = dir.remove;
    coordination = new EmbeddedCoordinationStore({ path: dir.path, logger: testLogger() });
    tokens = new ConsoleSessionTokens(
      loadAppConfig({ JWT_SECRET: TEST_JWT_SECRET }),
      clock,
      new ConsoleSignInLinksStore(coordination),
    );
  });
  afterEach(async () => {
    await coordination.close();
    await remove();
  });

  it('issues an HS256 JWT for 12 hours, for the console audience, with a new session id each time', async () => {
    const { token, session } = tokens.issue(ann);
    const now = Math.floor(clock.now() / 1000);
    const jwt = decodeJwt(token);
    expect(jwt?.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(jwt?.claims).toEqual({
      sub: 'usr_ann',
      email: 'ann@example.com',
      sid: session.sid,
      iat: now,
      exp: now + 43_200,
      aud: 'notify-console',
    });
    expect(session.sid).toMatch(/^[\w-]{22}$/);
    expect(tokens.issue(ann).session.sid).not.toBe(session.sid);
    expect(await tokens.verify(token)).toEqual({ ...ann, sid: session.sid, exp: now + 43_200 });
  });

  it('signs with a key derived from JWT_SECRET, never with JWT_SECRET itself', () => {
    const jwt = decodeJwt(tokens.issue(ann).token);
    if (jwt === undefined) throw new Error('not a JWT');
    expect(verifyJwt(jwt, 'HS256', Buffer.from(TEST_JWT_SECRET))).toBe(false);
  });

  it('refuses (401) an expired token, a revoked one and one it never issued', async () => {
    const { token, session } = tokens.issue(ann);
    clock.advance(43_200_000);
    await expect(tokens.verify(token)).rejects.toMatchObject({ message: 'The console session has expired.' });
    const fresh = tokens.issue(ann);
    await tokens.revoke(fresh.session);
    await expect(tokens.verify(fresh.token)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(session.sid).not.toBe(fresh.session.sid);
    await expect(tokens.verify('a.b.c')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('is off without JWT_SECRET: nothing verifies', async () => {
    const off = new ConsoleSessionTokens(loadAppConfig({}), clock, new ConsoleSignInLinksStore(coordination));
    expect(off.enabled).toBe(false);
    await expect(off.verify(tokens.issue(ann).token)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(() => off.issue(ann)).toThrow(/JWT_SECRET/);
  });
});
