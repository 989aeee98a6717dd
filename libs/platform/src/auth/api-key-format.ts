/** Every API key starts with this; the rest is 24 random bytes in base64url. */
export const API_KEY_PREFIX = 'notify_sk_';

/**
 * The shape of a key. A presented key is checked against it before any lookup or hashing: garbage
 * costs nothing, and configured keys (BOOTSTRAP_API_KEY) cannot be weaker than generated ones.
 */
export const API_KEY_PATTERN = /^notify_sk_[A-Za-z0-9_-]{32}$/;
