import { API_KEY_PATTERN, API_KEY_PREFIX } from '@notify/platform';
import { createHash, randomBytes } from 'node:crypto';

export { API_KEY_PREFIX };

/** A new secret key: shown once to its creator; only its hash is stored. */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

/** Whether a presented key has the shape of ours (checked before any lookup). */
export const isWellFormedApiKey = (key: string) => API_KEY_PATTERN.test(key);

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The first characters of a key, safe to show so that keys can be told apart. */
export const keyPrefix = (key: string) => key.slice(0, API_KEY_PREFIX.length + 4);
