import { Injectable } from '@nestjs/common';
import { ConsoleSignInLinksStore } from '@notify/cache';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { type Clock, decodeJwt, nowSeconds, UnauthorizedError, verifyJwt } from '@notify/util';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** A console session lasts a working day; signing in again starts a new one. */
export const CONSOLE_SESSION_SECONDS = 43_200;
const AUDIENCE = 'notify-console';
const MAX_TOKEN_LENGTH = 4_096;

/** A verified, unrevoked console session. */
export interface ConsoleSession {
  readonly userId: string;
  readonly email: string;
  /** The session's id: what signing out revokes. */
  readonly sid: string;
  /** Seconds since the epoch. */
  readonly exp: number;
}

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const refused = (message: string) =>
  new UnauthorizedError({ code: 'UNAUTHORIZED', message, fix: 'Sign in to the console again.' });

/**
 * The web console's session tokens: HS256 JWTs `{sub: userId, email, sid, iat, exp, aud:
 * 'notify-console'}` signed with a key derived (HKDF) from JWT_SECRET for this use alone, so a
 * session token is never a valid member bearer token and an identity provider's token is never a
 * session. Without JWT_SECRET there are no console sessions.
 */
@Injectable()
export class ConsoleSessionTokens {
  private readonly key: Buffer | undefined;

  constructor(
    @InjectConfig() config: AppConfig,
    @InjectClock() private readonly clock: Clock,
    private readonly store: ConsoleSignInLinksStore,
  ) {
    const { secret } = config.identity.jwt;
    this.key =
      secret === undefined
        ? undefined
        : Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'notify console session v1', 32));
  }

  /** Whether sessions can be issued (JWT_SECRET is set). */
  get enabled(): boolean {
    return this.key !== undefined;
  }

  /** A new session of the person, for CONSOLE_SESSION_SECONDS from now. */
  issue(person: { readonly userId: string; readonly email: string }): {
    token: string;
    session: ConsoleSession;
  } {
    const key = this.signingKey();
    const iat = nowSeconds(this.clock);
    const session = {
      userId: person.userId,
      email: person.email,
      sid: randomBytes(16).toString('base64url'),
      exp: iat + CONSOLE_SESSION_SECONDS,
    };
    const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({
      sub: session.userId,
      email: session.email,
      sid: session.sid,
      iat,
      exp: session.exp,
      aud: AUDIENCE,
    })}`;
    return { token: `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`, session };
  }

  /** The session of a genuine, unexpired token that was not signed out; 401 otherwise. */
  async verify(token: string): Promise<ConsoleSession> {
    const jwt = this.key === undefined || token.length > MAX_TOKEN_LENGTH ? undefined : decodeJwt(token);
    if (jwt === undefined || this.key === undefined || !verifyJwt(jwt, 'HS256', this.key))
      throw refused('The console session is not one this service issued.');
    const { sub, email, sid, exp, aud } = jwt.claims;
    if (
      aud !== AUDIENCE ||
      typeof sub !== 'string' ||
      typeof email !== 'string' ||
      typeof sid !== 'string' ||
      typeof exp !== 'number'
    )
      throw refused('The console session is malformed.');
    if (exp <= nowSeconds(this.clock)) throw refused('The console session has expired.');
    if (await this.store.isRevoked(sid)) throw refused('The console session was signed out.');
    return { userId: sub, email, sid, exp };
  }

  /** Signs the session out on every gateway, until it would have expired anyway. */
  async revoke(session: ConsoleSession): Promise<void> {
    await this.store.revoke(session.sid, session.exp * 1_000 - this.clock.now());
  }

  private signingKey(): Buffer {
    if (this.key === undefined) throw new Error('JWT_SECRET is not set: console sessions cannot be signed');
    return this.key;
  }
}
