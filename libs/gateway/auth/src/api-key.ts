import type { ApiKeyType } from '@notify/domain';
import { API_KEY_PATTERN, API_KEY_PREFIX } from '@notify/platform';
import { createHash, randomBytes } from 'node:crypto';

export { API_KEY_PREFIX };
/** Public (browser) keys: told apart from secret keys at a glance, and by the guard. */
export const PUBLIC_KEY_PREFIX = 'notify_pk_';
const PUBLIC_KEY_PATTERN = /^notify_pk_[A-Za-z0-9_-]{32}$/;

/** A new key: shown once to its creator; only its hash is stored. */
export function newApiKey(type: ApiKeyType = 'secret'): string {
  return `${type === 'public' ? PUBLIC_KEY_PREFIX : API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

/** Whether a presented key has the shape of ours (checked before any lookup or hashing). */
export const isWellFormedApiKey = (key: string) => API_KEY_PATTERN.test(key) || PUBLIC_KEY_PATTERN.test(key);

/** Whether a presented key has the shape of a public key (the browser client may send one as its client id). */
export const isPublicKeyShaped = (key: string) => PUBLIC_KEY_PATTERN.test(key);

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The first characters of a key, safe to show so that keys can be told apart. */
export const keyPrefix = (key: string) => key.slice(0, API_KEY_PREFIX.length + 4);
