import { createHmac, type KeyObject, sign } from 'node:crypto';

/** The HS256 secret the identity tests configure as JWT_SECRET. */
export const TEST_JWT_SECRET = 'test-jwt-secret-that-is-at-least-32-characters-long';

export interface TokenOptions {
  readonly sub?: string;
  readonly email?: string;
  /** Seconds from now (negative: already expired). Default one hour. */
  readonly expiresIn?: number;
  readonly claims?: Record<string, unknown>;
  readonly header?: Record<string, unknown>;
  /** HS256 with this secret (default TEST_JWT_SECRET), or RS256/ES256 with a private key. */
  readonly secret?: string;
  readonly key?: { readonly privateKey: KeyObject; readonly alg: 'RS256' | 'ES256'; readonly kid?: string };
}

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A member's JWT as an identity provider would issue it (or, with options, one it should not). */
export function aMemberToken(options: TokenOptions = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const alg = options.key?.alg ?? 'HS256';
  const header = {
    alg,
    typ: 'JWT',
    ...(options.key?.kid ? { kid: options.key.kid } : {}),
    ...options.header,
  };
  const email = options.email ?? 'owner@notify.localhost';
  const claims = {
    sub: options.sub ?? `sub-${email}`,
    email,
    iat: now,
    exp: now + (options.expiresIn ?? 3_600),
    ...options.claims,
  };
  const input = `${part(header)}.${part(claims)}`;
  if (options.key === undefined)
    return `${input}.${createHmac('sha256', options.secret ?? TEST_JWT_SECRET)
      .update(input)
      .digest('base64url')}`;
  const signature =
    options.key.alg === 'ES256'
      ? sign('sha256', Buffer.from(input), { key: options.key.privateKey, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(input), options.key.privateKey);
  return `${input}.${signature.toString('base64url')}`;
}
