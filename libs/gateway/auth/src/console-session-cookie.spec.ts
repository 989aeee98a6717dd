import { expiredSessionCookie, sessionCookie, sessionCookieOf } from './console-session-cookie';

describe('console session cookie', () => {
  it('is HttpOnly, Secure, SameSite=Strict on the whole host, for 12 hours; clearing it expires it now', () => {
    expect(sessionCookie('a.b.c')).toBe(
      '__Host-notify_session=a.b.c; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=43200',
    );
    expect(expiredSessionCookie()).toBe(
      '__Host-notify_session=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0',
    );
  });

  it('is read from a Cookie header among others, and only by its exact name', () => {
    expect(sessionCookieOf('__Host-notify_session=a.b.c')).toBe('a.b.c');
    expect(sessionCookieOf('theme=dark;  __Host-notify_session=a.b.c ; lang=en')).toBe('a.b.c');
    for (const header of [
      undefined,
      '',
      'theme=dark',
      'notify_session=a.b.c',
      '__Host-notify_session_x=a.b.c',
      '__Host-notify_session=',
      ['__Host-notify_session=a.b.c'],
      `__Host-notify_session=${'a'.repeat(9_000)}`,
    ])
      expect(sessionCookieOf(header)).toBeUndefined();
  });
});
