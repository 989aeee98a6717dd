import { createHmac, type KeyObject, timingSafeEqual, verify } from 'node:crypto';
import type { Clock } from '../time/clock';

/** A compact JWS, split: what bearer tokens (members' JWTs, providers' assertions) are checked with. */
export interface DecodedJwt {
  readonly header: Record<string, unknown>;
  readonly claims: Record<string, unknown>;
  readonly signingInput: string;
  readonly signature: Buffer;
}

/** The signature algorithms this service verifies; `none` and every other value are refused. */
export type JwtAlgorithm = 'HS256' | 'RS256' | 'ES256';

/** The parts of a JWT, or undefined when it is not one (three base64url parts, JSON objects). */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, claims, signature] = parts as [string, string, string];
  const decoded = [jsonObject(header), jsonObject(claims)] as const;
  if (decoded[0] === undefined || decoded[1] === undefined) return undefined;
  return {
    header: decoded[0],
    claims: decoded[1],
    signingInput: `${header}.${claims}`,
    signature: Buffer.from(signature, 'base64url'),
  };
}

/**
 * Whether the JWT is signed with `key` under `algorithm` (the header must name it, so a token
 * cannot choose a weaker one, `none` included). HS256 takes the shared secret; ES256 signatures
 * are JOSE's raw r‖s, not DER.
 */
export function verifyJwt(jwt: DecodedJwt, algorithm: JwtAlgorithm, key: KeyObject | Buffer): boolean {
  if (jwt.header.alg !== algorithm) return false;
  const input = Buffer.from(jwt.signingInput);
  try {
    if (algorithm === 'HS256') {
      if (!Buffer.isBuffer(key)) return false;
      const expected = createHmac('sha256', key).update(input).digest();
      return expected.length === jwt.signature.length && timingSafeEqual(expected, jwt.signature);
    }
    if (Buffer.isBuffer(key)) return false;
    return algorithm === 'ES256'
      ? verify('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, jwt.signature)
      : verify('sha256', input, key, jwt.signature);
  } catch {
    return false;
  }
}

export const nowSeconds = (clock: Clock): number => Math.floor(clock.now() / 1000);

function jsonObject(part: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
