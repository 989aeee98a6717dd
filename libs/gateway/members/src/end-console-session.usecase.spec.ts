import { RateLimitedError, UnauthorizedError } from '@notify/util';
import { type ConsoleHarness, consoleHarness } from './testing/console.harness';

describe('EndConsoleSessionUseCase', () => {
  let h: ConsoleHarness;
  beforeEach(async () => {
    h = await consoleHarness({ AUTH_FAILURES_PER_MINUTE: '2' });
  });
  afterEach(() => h.close());

  it('signs the session out: its token stops working, other sessions of the person do not', async () => {
    const first = h.sessions.issue({ userId: h.ownerId, email: 'owner@example.com' });
    const second = h.sessions.issue({ userId: h.ownerId, email: 'owner@example.com' });
    expect(await h.endSession.execute(first.token, '192.0.2.1')).toEqual({ success: true });
    await expect(h.sessions.verify(first.token)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(h.sessions.verify(second.token)).resolves.toMatchObject({ sid: second.session.sid });
    expect(await h.endSession.execute(first.token, '192.0.2.1')).toEqual({ success: true });
  });

  it('answers success without a cookie, and for one that holds no session, counting that as a failure', async () => {
    expect(await h.endSession.execute(undefined, '203.0.113.1')).toEqual({ success: true });
    for (let i = 0; i < 2; i++)
      expect(await h.endSession.execute('not-a-session', '203.0.113.1')).toEqual({ success: true });
    await expect(h.endSession.execute('not-a-session', '203.0.113.1')).rejects.toBeInstanceOf(
      RateLimitedError,
    );
  });
});
