import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectClock, InjectConfig, readingKeys } from '@notify/platform';
import { type Clock, InvalidRequestError } from '@notify/util';
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** What a link's token carries: an invitation (account, email) or an email change (person, new email). */
const claimsSchema = z.discriminatedUnion('purpose', [
  z.object({
    purpose: z.literal('invite'),
    accountId: z.string(),
    email: z.string(),
    expiresAt: z.number(),
    nonce: z.string(),
  }),
  z.object({
    purpose: z.literal('email_change'),
    userId: z.string(),
    email: z.string(),
    expiresAt: z.number(),
    nonce: z.string(),
  }),
]);
export type TokenClaims = z.infer<typeof claimsSchema>;
type Purpose = TokenClaims['purpose'];
/** Claims as the caller gives them; the expiry and a nonce are added. */
type WithoutSigning<T> = T extends unknown ? Omit<T, 'expiresAt' | 'nonce'> : never;
type Unsigned = WithoutSigning<TokenClaims>;

/** The token of a link, and the hash its record keeps (the token itself is never stored). */
export interface IssuedToken {
  readonly token: string;
  readonly tokenHash: string;
  readonly expiresAt: number;
}

const invalid = () =>
  new InvalidRequestError({
    code: 'INVALID_TOKEN',
    message: 'This link is not one the service issued.',
    fix: 'Open the link from the email exactly as it was sent.',
  });

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Tokens of the links mailed for invitations and email changes: `base64url(claims).base64url(mac)`,
 * HMAC-SHA256 with a key derived (HKDF) from SECRETS_KEY, so nobody without the key can make one;
 * a link mailed before a rotation is still read with SECRETS_PREVIOUS_KEYS.
 * A token expires (INVITATION_TTL_HOURS) and is good once: its record keeps its hash and is
 * removed when it is redeemed, or replaced by a newer link's.
 */
@Injectable()
export class SignedTokens {
  /** The signing key first, then those of the keys rotated out. */
  private readonly keys: readonly Buffer[];

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {
    this.keys = readingKeys(config.secrets).map((secret) =>
      Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'notify link tokens v1', 32)),
    );
  }

  issue(claims: Unsigned): IssuedToken {
    const expiresAt = this.clock.now() + this.config.identity.invitationTtlHours * 3_600_000;
    const payload = Buffer.from(
      JSON.stringify({ ...claims, expiresAt, nonce: randomBytes(16).toString('base64url') }),
    ).toString('base64url');
    const token = `${payload}.${this.mac(this.signingKey(), payload).toString('base64url')}`;
    return { token, tokenHash: hashToken(token), expiresAt };
  }

  /** The claims of a genuine, unexpired token for this purpose; 400 INVALID_TOKEN or TOKEN_EXPIRED otherwise. */
  verify<P extends Purpose>(token: string, purpose: P): Extract<TokenClaims, { purpose: P }> {
    const [payload, mac, extra] = token.split('.');
    if (payload === undefined || mac === undefined || extra !== undefined) throw invalid();
    const given = Buffer.from(mac, 'base64url');
    const signedBy = (key: Buffer) => {
      const expected = this.mac(key, payload);
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    if (!this.keys.some(signedBy)) throw invalid();
    let claims: TokenClaims;
    try {
      claims = claimsSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    } catch {
      throw invalid();
    }
    if (claims.purpose !== purpose) throw invalid();
    if (claims.expiresAt <= this.clock.now())
      throw new InvalidRequestError({
        code: 'TOKEN_EXPIRED',
        message: `This link expired at ${new Date(claims.expiresAt).toISOString()}.`,
        fix: 'Ask for a new one.',
      });
    return claims as Extract<TokenClaims, { purpose: P }>;
  }

  private signingKey(): Buffer {
    const [key] = this.keys;
    if (key === undefined)
      throw new Error('SECRETS_KEY is not set: invitation and email-change links cannot be signed');
    return key;
  }

  private mac(key: Buffer, payload: string): Buffer {
    return createHmac('sha256', key).update(payload).digest();
  }
}

export const tokenUsed = () =>
  new InvalidRequestError({
    code: 'TOKEN_USED',
    message: 'This link was already used, or a newer one replaced it.',
    fix: 'Use the most recent link you were sent, or ask for a new one.',
  });
