import { CONSOLE_SESSION_SECONDS } from './console-session-tokens';

/**
 * The console session's cookie. `__Host-` binds it to this host (Secure, Path=/, no Domain); it is
 * HttpOnly, so page scripts never read it, and SameSite=Strict, so no other site's page sends it.
 */
export const CONSOLE_SESSION_COOKIE = '__Host-notify_session';
/** The header every cookie-authenticated request must carry (a cross-site page cannot set it without a CORS preflight, which is never granted). */
export const CONSOLE_HEADER = 'x-notify-console';

const ATTRIBUTES = 'HttpOnly; Secure; SameSite=Strict; Path=/';
const MAX_COOKIE_HEADER = 8_192;

export const sessionCookie = (token: string): string =>
  `${CONSOLE_SESSION_COOKIE}=${token}; ${ATTRIBUTES}; Max-Age=${CONSOLE_SESSION_SECONDS}`;

export const expiredSessionCookie = (): string => `${CONSOLE_SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0`;

/** The session token in a Cookie header (`name=value; name=value`), if it holds a non-empty one. */
export function sessionCookieOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string' || header.length > MAX_COOKIE_HEADER) return undefined;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim() !== CONSOLE_SESSION_COOKIE) continue;
    const value = pair.slice(equals + 1).trim();
    return value.length > 0 ? value : undefined;
  }
  return undefined;
}
