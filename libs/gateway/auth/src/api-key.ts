import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'notify_sk_';

/** A new secret key: shown once to its creator; only its hash is stored. */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The first characters of a key, safe to show so that keys can be told apart. */
export const keyPrefix = (key: string) => key.slice(0, API_KEY_PREFIX.length + 4);
