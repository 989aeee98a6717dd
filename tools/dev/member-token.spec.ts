import { JwksKeySet, JwtVerifier } from '@notify/gateway-auth';
import { loadAppConfig } from '@notify/platform';
import { FakeClock, tempDir } from '@notify/testing';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { localJwtSecret, memberToken } from './member-token';

describe('member-token (local sign-in)', () => {
  const secret = 'a-local-jwt-secret-of-at-least-32-characters';
  const config = loadAppConfig({ JWT_SECRET: secret });
  let clock: FakeClock;
  let verifier: JwtVerifier;
  let now: number;

  beforeEach(() => {
    clock = new FakeClock();
    verifier = new JwtVerifier(config, clock, new JwksKeySet(config, clock));
    now = Math.floor(clock.now() / 1000);
  });

  it('prints a token the service accepts, for the same identity every time', async () => {
    const token = memberToken({ secret, email: 'Owner@Notify.localhost', now, hours: 12 });
    const identity = await verifier.verify(token);
    expect(identity).toEqual({
      sub: 'local|owner@notify.localhost',
      email: 'Owner@Notify.localhost',
      emailTrusted: true,
    });
    const again = memberToken({ secret, email: 'owner@notify.localhost', now: now + 60, hours: 1 });
    expect((await verifier.verify(again)).sub).toBe(identity.sub);
  });

  it('lasts the hours asked for', async () => {
    const token = memberToken({ secret, email: 'ann@example.com', now, hours: 1 });
    clock.advance(3_600_000 + 30_000);
    await expect(verifier.verify(token)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'The token has expired.',
    });
  });

  it('needs the JWT_SECRET of the service', () => {
    expect(() => memberToken({ secret: '', email: 'ann@example.com', now, hours: 1 })).toThrow(/JWT_SECRET/);
  });

  it('takes JWT_SECRET, else the secret the all-in-one made in DATA_DIR/jwt.secret', async () => {
    const dir = await tempDir('notify-member-token-');
    try {
      expect(localJwtSecret({ DATA_DIR: dir.path })).toBe('');
      await writeFile(join(dir.path, 'jwt.secret'), `${secret}\n`, { mode: 0o600 });
      expect(localJwtSecret({ DATA_DIR: dir.path })).toBe(secret);
      expect(localJwtSecret({ DATA_DIR: dir.path, JWT_SECRET: 'given' })).toBe('given');
    } finally {
      await dir.remove();
    }
  });
});
