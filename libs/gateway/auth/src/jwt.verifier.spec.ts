import { loadAppConfig } from '@notify/platform';
import {
  aMemberToken,
  anIdentityProviderKey,
  FakeClock,
  JwksServer,
  TEST_JWT_SECRET,
  type TokenOptions,
} from '@notify/testing';
import { UnauthorizedError } from '@notify/util';
import { createPublicKey } from 'node:crypto';
import { JwksKeySet } from './jwks.key-set';
import { JwtVerifier, looksLikeJwt } from './jwt.verifier';

describe('JwtVerifier', () => {
  const clock = new FakeClock();
  const rsa = anIdentityProviderKey('RS256', 'rsa-1');
  const ec = anIdentityProviderKey('ES256', 'ec-1');
  let jwks: JwksServer;

  beforeAll(async () => {
    jwks = await new JwksServer().start();
    jwks.keys = [rsa.jwk, ec.jwk];
  });
  afterAll(() => jwks.stop());
  beforeEach(() => clock.set('2026-01-05T09:00:00.000Z'));

  const seconds = () => Math.floor(clock.now() / 1000);
  /** Who issues the tokens and for whom: a JWKS provider must be pinned to both. */
  const PROVIDER = { iss: 'https://idp.test/', aud: 'notify' };
  const pinned = { JWT_ISSUER: PROVIDER.iss, JWT_AUDIENCE: PROVIDER.aud };
  /** A token as the provider issues it, its times on the fake clock. */
  const token = (options: TokenOptions = {}) =>
    aMemberToken({
      email: 'ann@example.com',
      sub: 'idp|ann',
      ...options,
      claims: { iat: seconds(), exp: seconds() + 3_600, ...PROVIDER, ...options.claims },
    });
  const verifier = (env: Record<string, string> = { JWT_SECRET: TEST_JWT_SECRET }) => {
    const config = loadAppConfig(env);
    return new JwtVerifier(config, clock, new JwksKeySet(config, clock));
  };
  const withJwks = (env: Record<string, string> = {}) =>
    verifier({ JWT_JWKS_URL: jwks.url, ...pinned, ...env });
  const signedBy = (key: typeof rsa, options: TokenOptions = {}) =>
    token({ ...options, key: { privateKey: key.privateKey, alg: key.alg, kid: key.kid } });

  /** Expects a 401 UNAUTHORIZED whose message matches `reason`. */
  const expectRefused = async (verifying: Promise<unknown>, reason: RegExp) => {
    const error = (await verifying.then(
      () => undefined,
      (e: unknown) => e,
    )) as UnauthorizedError | undefined;
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ kind: 'unauthorized', code: 'UNAUTHORIZED', fix: expect.any(String) });
    expect(error?.message).toMatch(reason);
  };

  describe('accepts', () => {
    it('an HS256 token signed with JWT_SECRET, naming the person by sub and email', async () => {
      await expect(verifier().verify(token())).resolves.toEqual({
        sub: 'idp|ann',
        email: 'ann@example.com',
        emailTrusted: true,
      });
    });

    it('RS256 and ES256 tokens signed with a key of the JWKS, by kid', async () => {
      const v = withJwks();
      await expect(v.verify(signedBy(rsa))).resolves.toEqual({
        sub: 'idp|ann',
        email: 'ann@example.com',
        emailTrusted: false,
      });
      await expect(v.verify(signedBy(ec, { sub: 'idp|ec' }))).resolves.toMatchObject({ sub: 'idp|ec' });
    });

    it("trusts a JWKS token's email only when the provider says email_verified: true", async () => {
      const v = withJwks();
      await expect(v.verify(signedBy(rsa, { claims: { email_verified: true } }))).resolves.toMatchObject({
        emailTrusted: true,
      });
      await expect(v.verify(signedBy(rsa, { claims: { email_verified: 'true' } }))).resolves.toMatchObject({
        emailTrusted: false,
      });
    });

    it('HS256 and JWKS tokens side by side when both are configured', async () => {
      const v = verifier({ JWT_SECRET: TEST_JWT_SECRET, JWT_JWKS_URL: jwks.url, ...pinned });
      await expect(v.verify(token())).resolves.toMatchObject({ sub: 'idp|ann' });
      await expect(v.verify(signedBy(ec))).resolves.toMatchObject({ sub: 'idp|ann' });
    });

    it('the issuer and an audience among several when JWT_ISSUER and JWT_AUDIENCE are set', async () => {
      const v = verifier({
        JWT_SECRET: TEST_JWT_SECRET,
        JWT_ISSUER: 'https://idp.test/',
        JWT_AUDIENCE: 'notify',
      });
      await expect(
        v.verify(token({ claims: { iss: 'https://idp.test/', aud: 'notify' } })),
      ).resolves.toBeDefined();
      await expect(
        v.verify(token({ claims: { iss: 'https://idp.test/', aud: ['console', 'notify'] } })),
      ).resolves.toBeDefined();
    });

    it('30 s of clock difference either way around exp and nbf, not a second more', async () => {
      const v = verifier();
      const expiring = token({ claims: { exp: seconds() } });
      const early = token({ claims: { nbf: seconds() + 30 } });
      await expect(v.verify(early)).resolves.toBeDefined();
      clock.advance(-1_000);
      await expectRefused(v.verify(early), /not valid yet/);
      clock.advance(30_000);
      await expect(v.verify(expiring)).resolves.toBeDefined();
      clock.advance(1_000);
      await expectRefused(v.verify(expiring), /expired/);
    });
  });

  describe('refuses with 401', () => {
    it('an expired token', async () => {
      await expectRefused(verifier().verify(token({ claims: { exp: seconds() - 3_600 } })), /expired/);
    });

    it('a token not valid yet (nbf), or with an nbf that is not a number', async () => {
      await expectRefused(verifier().verify(token({ claims: { nbf: seconds() + 600 } })), /not valid yet/);
      await expectRefused(verifier().verify(token({ claims: { nbf: 'now' } })), /not valid yet/);
    });

    it('a wrong signature: another secret, or a changed claim', async () => {
      await expectRefused(verifier().verify(token({ secret: 'x'.repeat(40) })), /signature/);
      const [header, , signature] = token().split('.');
      const forged = Buffer.from(
        JSON.stringify({ sub: 'idp|ann', email: 'boss@example.com', exp: seconds() + 60 }),
      ).toString('base64url');
      await expectRefused(verifier().verify(`${header}.${forged}.${signature}`), /signature/);
    });

    it('a JWKS token signed by a key the set does not hold under its kid', async () => {
      const impostor = anIdentityProviderKey('RS256', 'rsa-1');
      await expectRefused(withJwks().verify(signedBy(impostor)), /signature/);
      // The ES256 key named by an RS256 token's kid: the algorithms must match.
      await expectRefused(withJwks().verify(signedBy({ ...rsa, kid: 'ec-1' })), /signature/);
    });

    it('an HS256 token when only a JWKS is configured, and an RS256 one when only a secret is', async () => {
      await expectRefused(withJwks().verify(token()), /alg "HS256" are not accepted/);
      await expectRefused(verifier().verify(signedBy(rsa)), /alg "RS256" are not accepted/);
    });

    it('an HS256 token signed with the JWKS public key as its secret (algorithm confusion)', async () => {
      const pem = String(createPublicKey(rsa.privateKey).export({ format: 'pem', type: 'spki' }));
      await expectRefused(
        withJwks().verify(token({ secret: pem, header: { kid: 'rsa-1' } })),
        /not accepted/,
      );
    });

    it('alg none, with an empty signature part and with none at all', async () => {
      const unsigned = token({ header: { alg: 'none' } })
        .split('.')
        .slice(0, 2)
        .join('.');
      await expectRefused(verifier().verify(`${unsigned}.`), /alg "none" are not accepted/);
      await expectRefused(verifier().verify(unsigned), /not a well-formed JWT/);
      await expectRefused(withJwks().verify(`${unsigned}.`), /alg "none" are not accepted/);
    });

    it('a kid the key set does not hold, or one that is not a short string', async () => {
      await expectRefused(withJwks().verify(signedBy({ ...rsa, kid: 'rotated-away' })), /kid/);
      await expectRefused(withJwks().verify(signedBy(rsa, { header: { kid: 42 } })), /kid/);
      await expectRefused(withJwks().verify(signedBy(rsa, { header: { kid: 'k'.repeat(256) } })), /kid/);
    });

    it('a wrong issuer, or none, when JWT_ISSUER is set', async () => {
      const v = verifier({ JWT_SECRET: TEST_JWT_SECRET, JWT_ISSUER: 'https://idp.test/' });
      await expectRefused(v.verify(token({ claims: { iss: 'https://evil.test/' } })), /not issued by/);
      await expectRefused(v.verify(token({ claims: { iss: undefined } })), /not issued by/);
    });

    it('a wrong audience, as a string or an array, or none, when JWT_AUDIENCE is set', async () => {
      const v = verifier({ JWT_SECRET: TEST_JWT_SECRET, JWT_AUDIENCE: 'notify' });
      await expectRefused(v.verify(token({ claims: { aud: 'console' } })), /audience notify/);
      await expectRefused(v.verify(token({ claims: { aud: ['console', 'billing'] } })), /audience notify/);
      await expectRefused(v.verify(token({ claims: { aud: undefined } })), /audience notify/);
    });

    it('a token without exp, sub or email, or with an email its provider has not verified', async () => {
      await expectRefused(verifier().verify(token({ claims: { exp: undefined } })), /no expiry/);
      await expectRefused(verifier().verify(token({ claims: { exp: '2030-01-01' } })), /no expiry/);
      await expectRefused(verifier().verify(token({ claims: { sub: undefined } })), /no subject/);
      await expectRefused(verifier().verify(token({ claims: { sub: '' } })), /no subject/);
      await expectRefused(verifier().verify(token({ claims: { email: undefined } })), /no email/);
      await expectRefused(verifier().verify(token({ claims: { email: 'not an address' } })), /no email/);
      await expectRefused(verifier().verify(token({ claims: { email_verified: false } })), /not verified/);
      await expect(verifier().verify(token({ claims: { email_verified: true } }))).resolves.toBeDefined();
    });

    it('malformed tokens: not three parts, parts that are not JSON objects', async () => {
      const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      for (const malformed of [
        'abc',
        'a.b',
        'a.b.c.d',
        `${part({ alg: 'HS256' })}.not-json.sig`,
        `${part([1, 2])}.${part({ sub: 'x' })}.sig`,
        `${part({ alg: 'HS256' })}.${part(null)}.sig`,
      ])
        await expectRefused(verifier().verify(malformed), /not a well-formed JWT/);
    });

    it('an oversized token, before decoding it', async () => {
      await expectRefused(
        verifier().verify(token({ claims: { pad: 'x'.repeat(9_000) } })),
        /not a well-formed JWT/,
      );
    });

    it('every token when neither JWT_SECRET nor JWT_JWKS_URL is set', async () => {
      await expectRefused(verifier({}).verify(token()), /not configured/);
    });
  });

  it('tells JWTs from API keys by their shape', () => {
    expect(looksLikeJwt(token())).toBe(true);
    expect(looksLikeJwt('a.b.')).toBe(true);
    expect(looksLikeJwt(`notify_sk_${'A'.repeat(32)}`)).toBe(false);
    expect(looksLikeJwt('a.b')).toBe(false);
  });
});
