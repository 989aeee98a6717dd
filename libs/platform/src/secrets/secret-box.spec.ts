import { randomBytes } from 'node:crypto';
import { maskSecret } from '@notify/util';
import { parseSecretKey, readingKeys, SecretBox, SecretsError, secretKeyId } from './secret-box';

describe('SecretBox', () => {
  const current = randomBytes(32);
  const box = new SecretBox(current);

  it('opens what it sealed, in the same context only', () => {
    const sealed = box.seal('smtps://u:p@relay.example.com', 'acc/env/smtp');
    expect(sealed).not.toContain('relay.example.com');
    expect(sealed.split('.')[1]).toBe(secretKeyId(current));
    expect(box.open(sealed, 'acc/env/smtp')).toBe('smtps://u:p@relay.example.com');
    expect(() => box.open(sealed, 'acc/other-env/smtp')).toThrow(SecretsError);
  });

  it('refuses a tampered value and a value sealed with an unknown key', () => {
    const sealed = box.seal('secret', 'ctx');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => box.open(parts.join('.'), 'ctx')).toThrow(/tampered/);
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'ctx')).toThrow(/neither SECRETS_KEY/);
    expect(() => box.open('plain text', 'ctx')).toThrow(/not a sealed secret/);
  });

  it('rotates: the new key opens values sealed with a previous one, and says they are stale', () => {
    const next = new SecretBox(randomBytes(32), [current]);
    const old = box.seal('secret', 'ctx');
    expect(next.open(old, 'ctx')).toBe('secret');
    expect(next.isStale(old)).toBe(true);
    expect(next.isStale(next.seal('secret', 'ctx'))).toBe(false);
  });

  it('reads tokens with SECRETS_KEY first, then the keys rotated out; with no key, none', () => {
    const [older, oldest] = [randomBytes(32), randomBytes(32)];
    expect(readingKeys({ key: current, previousKeys: [older, oldest] })).toEqual([current, older, oldest]);
    expect(readingKeys({ previousKeys: [older] })).toEqual([]);
  });

  it('parses SECRETS_KEY strictly', () => {
    const key = randomBytes(32);
    expect(parseSecretKey(key.toString('base64')).equals(key)).toBe(true);
    expect(() => parseSecretKey(randomBytes(16).toString('base64'))).toThrow(/32 random bytes/);
    expect(() => parseSecretKey('not base64 at all!!')).toThrow(/32 random bytes/);
  });

  it('masks all but the last characters', () => {
    expect(maskSecret('abcdefghijkl')).toBe('••••ijkl');
    expect(maskSecret('short')).toBe('••••');
  });
});
