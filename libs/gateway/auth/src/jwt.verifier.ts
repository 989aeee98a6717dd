import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { type Clock, decodeJwt, type DecodedJwt, UnauthorizedError, verifyJwt } from '@notify/util';
import { JwksKeySet } from './jwks.key-set';

/** Who a verified token names. */
export interface TokenIdentity {
  readonly sub: string;
  readonly email: string;
  /**
   * Whether the email may find (and bind) a person: tokens signed with JWT_SECRET come from the
   * operator's own issuer, which vouches for them; a JWKS provider's must say `email_verified:
   * true`, since some providers let users type any address into the claim.
   */
  readonly emailTrusted: boolean;
}

/** Clocks of the identity provider and of this service may differ by this much. */
const CLOCK_TOLERANCE_S = 30;
const MAX_TOKEN_LENGTH = 8_192;
const FIX = 'Sign in again to get a fresh token from the identity provider the operator configured.';

const refused = (message: string) => new UnauthorizedError({ code: 'UNAUTHORIZED', message, fix: FIX });

/** Whether a bearer credential is shaped like a JWT (three base64url parts) rather than an API key. */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);

/**
 * Verifies members' JWTs: HS256 with JWT_SECRET, RS256/ES256 with the keys of JWT_JWKS_URL. The
 * signature, `exp` (required), `nbf`, and JWT_ISSUER / JWT_AUDIENCE when set are checked; `alg:
 * none` and any algorithm not configured are refused. Every failure is a 401.
 */
@Injectable()
export class JwtVerifier {
  private readonly secret: Buffer | undefined;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
    private readonly keySet: JwksKeySet,
  ) {
    const { secret } = config.identity.jwt;
    this.secret = secret === undefined ? undefined : Buffer.from(secret, 'utf8');
  }

  async verify(token: string): Promise<TokenIdentity> {
    const jwt = token.length > MAX_TOKEN_LENGTH ? undefined : decodeJwt(token);
    if (jwt === undefined) throw refused('The bearer token is not a well-formed JWT.');
    await this.checkSignature(jwt);
    this.checkClaims(jwt.claims);
    const { sub, email } = jwt.claims;
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > 255)
      throw refused('The token has no subject (sub).');
    if (typeof email !== 'string' || !/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email))
      throw refused('The token has no email claim.');
    // A person is found by email until their sub is bound: an address the provider has not verified
    // would let whoever typed it in act as its owner.
    if (jwt.claims.email_verified === false)
      throw refused("The token's email is not verified (email_verified).");
    return { sub, email, emailTrusted: jwt.header.alg === 'HS256' || jwt.claims.email_verified === true };
  }

  private async checkSignature(jwt: DecodedJwt): Promise<void> {
    const { alg, kid } = jwt.header;
    const { jwksUrl } = this.config.identity.jwt;
    if (this.secret === undefined && jwksUrl === undefined)
      throw refused('JWT sign-in is not configured on this service (JWT_SECRET or JWT_JWKS_URL).');
    if (alg === 'HS256' && this.secret !== undefined) {
      if (!verifyJwt(jwt, 'HS256', this.secret)) throw refused("The token's signature does not verify.");
      return;
    }
    if ((alg === 'RS256' || alg === 'ES256') && jwksUrl !== undefined) {
      if (kid !== undefined && (typeof kid !== 'string' || kid.length > 255))
        throw refused("The token's key id (kid) is malformed.");
      const found = await this.keySet.key(kid);
      if (found === undefined) throw refused("No key of the identity provider matches the token's kid.");
      if (found.algorithm !== alg || !verifyJwt(jwt, alg, found.key))
        throw refused("The token's signature does not verify.");
      return;
    }
    throw refused(`Tokens signed with alg ${JSON.stringify(alg)} are not accepted.`);
  }

  private checkClaims(claims: Record<string, unknown>): void {
    const now = Math.floor(this.clock.now() / 1000);
    const { exp, nbf, iss, aud } = claims;
    if (typeof exp !== 'number') throw refused('The token has no expiry (exp).');
    if (now - CLOCK_TOLERANCE_S >= exp) throw refused('The token has expired.');
    if (nbf !== undefined && (typeof nbf !== 'number' || now + CLOCK_TOLERANCE_S < nbf))
      throw refused('The token is not valid yet (nbf).');
    const { issuer, audience } = this.config.identity.jwt;
    if (issuer !== undefined && iss !== issuer) throw refused(`The token was not issued by ${issuer}.`);
    if (audience !== undefined) {
      const audiences = Array.isArray(aud) ? aud : [aud];
      if (!audiences.includes(audience)) throw refused(`The token is not meant for audience ${audience}.`);
    }
  }
}
