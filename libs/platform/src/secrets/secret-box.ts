import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;

/** A stored secret that cannot be opened: unknown key (rotated out), wrong context, or tampered. */
export class SecretsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsError';
  }
}

/** A key's id: derived from the key, so rotating needs no separate naming. */
export const secretKeyId = (key: Buffer) =>
  createHash('sha256').update('notify-secrets-key:').update(key).digest('hex').slice(0, 12);

/**
 * SECRETS_KEY, then SECRETS_PREVIOUS_KEYS: the keys whose tokens (tracking links, reply addresses,
 * invitation and email-change links) are still read after a rotation. Only the first signs.
 */
export const readingKeys = (secrets: {
  readonly key?: Buffer;
  readonly previousKeys: readonly Buffer[];
}): Buffer[] => (secrets.key === undefined ? [] : [secrets.key, ...secrets.previousKeys]);

/** Parses a base64 key of exactly 32 bytes (SECRETS_KEY), or explains what is wrong. */
export function parseSecretKey(text: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (
    key.length !== KEY_BYTES ||
    key.toString('base64').replace(/=+$/, '') !== text.trim().replace(/=+$/, '')
  ) {
    throw new SecretsError('expected 32 random bytes in base64, e.g. from `openssl rand -base64 32`');
  }
  return key;
}

/**
 * Encrypts provider credentials at rest (AES-256-GCM). A sealed value names the key that sealed it,
 * so keys rotate: seal with the current key, open with the current or any previous one. Each value
 * is bound to its context (e.g. `<account>/<environment>/smtp`) as associated data, so a sealed
 * value copied to another tenant's record does not open there.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  /** A box without keys: every seal and open fails, naming the missing setting. */
  static unconfigured(): SecretBox {
    return new SecretBox(undefined, []);
  }

  constructor(current: Buffer | undefined, previous: readonly Buffer[] = []) {
    for (const key of [...(current === undefined ? [] : [current]), ...previous]) {
      if (key.length !== KEY_BYTES) throw new SecretsError(`a secrets key must be ${KEY_BYTES} bytes`);
      this.keys.set(secretKeyId(key), key);
    }
    this.currentId = current === undefined ? '' : secretKeyId(current);
  }

  get configured(): boolean {
    return this.currentId !== '';
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.currentId), iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [VERSION, this.currentId, ...parts].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, keyId, iv, tag, body, extra] = sealed.split('.');
    if (
      version !== VERSION ||
      keyId === undefined ||
      iv === undefined ||
      tag === undefined ||
      body === undefined ||
      extra !== undefined
    )
      throw new SecretsError('not a sealed secret');
    const key = this.keys.get(keyId);
    if (key === undefined && !this.configured)
      throw new SecretsError('SECRETS_KEY is not set: stored provider credentials cannot be read');
    if (key === undefined)
      throw new SecretsError(
        `sealed with key ${keyId}, which is neither SECRETS_KEY nor in SECRETS_PREVIOUS_KEYS`,
      );
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretsError('the sealed secret does not open in this context (tampered or moved)');
    }
  }

  /** True when the value was sealed with an older key and should be sealed again. */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.currentId;
  }

  private key(id: string): Buffer {
    if (!this.configured)
      throw new SecretsError('SECRETS_KEY is not set: provider credentials cannot be stored');
    const key = this.keys.get(id);
    if (key === undefined) throw new SecretsError(`no key ${id}`);
    return key;
  }
}
