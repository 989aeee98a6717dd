// `npm run -s member-token [email] [hours]`: prints a member's JWT for signing in locally, signed
// HS256 with the JWT_SECRET the service was started with (else the one the all-in-one made in
// DATA_DIR/jwt.secret), for BOOTSTRAP_OWNER_EMAIL (by default
// owner@notify.localhost, the default account's owner) unless an email is given. Local use only: in
// production tokens come from the identity provider.
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface MemberTokenOptions {
  readonly secret: string;
  readonly email: string;
  /** Seconds since the epoch. */
  readonly now: number;
  readonly hours: number;
}

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * An HS256 JWT naming the person by email. Its `sub` is derived from the email, so every token this
 * prints for one address names the same identity (the first binds it; another sub would be refused).
 */
export function memberToken({ secret, email, now, hours }: MemberTokenOptions): string {
  if (secret.length < 32)
    throw new Error('JWT_SECRET must be set, as for the service (at least 32 characters)');
  const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({
    sub: `local|${email.trim().toLowerCase()}`,
    email,
    iat: now,
    exp: now + Math.round(hours * 3_600),
  })}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/**
 * The JWT_SECRET of the environment, else the one the all-in-one made under DATA_DIR (`.data/local`,
 * where `npm start` keeps its data, unless DATA_DIR says otherwise); empty when there is neither.
 */
export function localJwtSecret(env: Record<string, string | undefined>): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = join(env.DATA_DIR ?? '.data/local', 'jwt.secret');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
}

if (require.main === module) {
  const [email = process.env.BOOTSTRAP_OWNER_EMAIL ?? 'owner@notify.localhost', hours = '12'] =
    process.argv.slice(2);
  try {
    const token = memberToken({
      secret: localJwtSecret(process.env),
      email,
      now: Math.floor(Date.now() / 1000),
      hours: Number(hours),
    });
    process.stdout.write(`${token}\n`);
  } catch (error) {
    process.stderr.write(`member-token: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
