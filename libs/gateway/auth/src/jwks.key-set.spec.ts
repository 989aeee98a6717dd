import { loadAppConfig } from '@notify/platform';
import { anIdentityProviderKey, FakeClock, JwksServer } from '@notify/testing';
import { ServiceUnavailableError } from '@notify/util';
import { generateKeyPairSync } from 'node:crypto';
import { JWKS_REFETCH_INTERVAL_MS, JwksKeySet, parseKeySet } from './jwks.key-set';

const PINNED = { JWT_ISSUER: 'https://idp.test/', JWT_AUDIENCE: 'notify' };

describe('JwksKeySet', () => {
  const rsa = anIdentityProviderKey('RS256', 'rsa-1');
  const ec = anIdentityProviderKey('ES256', 'ec-1');
  let clock: FakeClock;
  let server: JwksServer;
  let keySet: JwksKeySet;

  beforeEach(async () => {
    clock = new FakeClock();
    server = await new JwksServer().start();
    server.keys = [rsa.jwk, ec.jwk];
    keySet = new JwksKeySet(loadAppConfig({ JWT_JWKS_URL: server.url, ...PINNED }), clock);
  });
  afterEach(() => server.stop());

  const expectUnavailable = async (finding: Promise<unknown>, reason: RegExp) => {
    const error = await finding.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ code: 'JWKS_UNAVAILABLE', kind: 'unavailable', fix: expect.any(String) });
    expect((error as Error).message).toMatch(reason);
  };

  it('fetches the set on first use and answers each key by kid, with its algorithm, from the cache', async () => {
    expect(await keySet.key('rsa-1')).toMatchObject({ algorithm: 'RS256' });
    expect(await keySet.key('ec-1')).toMatchObject({ algorithm: 'ES256' });
    clock.advance(5 * 60_000);
    expect(await keySet.key('rsa-1')).toMatchObject({ algorithm: 'RS256' });
    expect(server.hits).toBe(1);
  });

  it('fetches once for concurrent first uses', async () => {
    await Promise.all([keySet.key('rsa-1'), keySet.key('ec-1'), keySet.key('rsa-1')]);
    expect(server.hits).toBe(1);
  });

  it('refetches on an unknown kid at most once per JWKS_REFETCH_INTERVAL_MS, and finds a rotated-in key', async () => {
    await keySet.key('rsa-1');
    for (let i = 0; i < 20; i++) expect(await keySet.key(`made-up-${i}`)).toBeUndefined();
    expect(server.hits).toBe(1);
    const rotated = anIdentityProviderKey('RS256', 'rsa-2');
    server.keys = [rsa.jwk, rotated.jwk];
    clock.advance(JWKS_REFETCH_INTERVAL_MS - 1);
    expect(await keySet.key('rsa-2')).toBeUndefined();
    expect(server.hits).toBe(1);
    clock.advance(1);
    expect(await keySet.key('rsa-2')).toMatchObject({ algorithm: 'RS256' });
    expect(server.hits).toBe(2);
    expect(await keySet.key('made-up')).toBeUndefined();
    expect(server.hits).toBe(2);
  });

  it('refreshes known keys after ten minutes, so a key removed from the set stops working', async () => {
    await keySet.key('rsa-1');
    server.keys = [ec.jwk];
    clock.advance(10 * 60_000 + 1);
    expect(await keySet.key('rsa-1')).toBeUndefined();
    expect(await keySet.key('ec-1')).toBeDefined();
    expect(server.hits).toBe(2);
  });

  it('answers the only key for a token without kid, and none when the set holds several', async () => {
    server.keys = [{ ...rsa.jwk, kid: undefined }];
    expect(await keySet.key(undefined)).toMatchObject({ algorithm: 'RS256' });
    const other = new JwksKeySet(loadAppConfig({ JWT_JWKS_URL: server.url, ...PINNED }), clock);
    server.keys = [rsa.jwk, ec.jwk];
    expect(await other.key(undefined)).toBeUndefined();
  });

  it('keeps the keys it has while the provider fails, and fetches again a minute later', async () => {
    await keySet.key('rsa-1');
    server.answer = (response) => response.writeHead(500).end('down');
    clock.advance(10 * 60_000 + 1);
    expect(await keySet.key('rsa-1')).toMatchObject({ algorithm: 'RS256' });
    expect(server.hits).toBe(2);
    expect(await keySet.key('rsa-1')).toBeDefined();
    expect(server.hits).toBe(2);
  });

  it('answers 503 JWKS_UNAVAILABLE while it has no keys and the provider fails, until a fetch succeeds', async () => {
    server.answer = (response) => response.writeHead(503).end();
    await expectUnavailable(keySet.key('rsa-1'), /answered 503/);
    // Further tokens within the minute hear the same, without another fetch.
    await expectUnavailable(keySet.key('rsa-1'), /answered 503/);
    expect(server.hits).toBe(1);
    server.answer = undefined;
    clock.advance(JWKS_REFETCH_INTERVAL_MS);
    expect(await keySet.key('rsa-1')).toBeDefined();
    expect(server.hits).toBe(2);
  });

  it('answers 503 when the provider cannot be reached or sends something that is not JSON', async () => {
    server.answer = (response) => response.writeHead(200).end('<html>');
    await expectUnavailable(keySet.key('rsa-1'), /JSON/);
    const unreachable = new JwksKeySet(
      loadAppConfig({ JWT_JWKS_URL: 'http://127.0.0.1:9/jwks', ...PINNED }),
      clock,
    );
    await expectUnavailable(unreachable.key('rsa-1'), /fetch failed/);
  });

  it('refuses redirects', async () => {
    const target = await new JwksServer().start();
    target.keys = [rsa.jwk];
    try {
      server.answer = (response) => response.writeHead(302, { location: target.url }).end();
      await expectUnavailable(keySet.key('rsa-1'), /./);
      expect(target.hits).toBe(0);
    } finally {
      await target.stop();
    }
  });

  it('refuses a huge body, whether it declares its length or streams it', async () => {
    const huge = JSON.stringify({ keys: [rsa.jwk], pad: 'x'.repeat(300 * 1024) });
    server.answer = (response) => response.writeHead(200, { 'content-type': 'application/json' }).end(huge);
    await expectUnavailable(keySet.key('rsa-1'), /larger than/);
    server.answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(huge.slice(0, 200_000));
      response.end(huge.slice(200_000));
    };
    clock.advance(JWKS_REFETCH_INTERVAL_MS);
    await expectUnavailable(keySet.key('rsa-1'), /larger than/);
  });
});

describe('parseKeySet', () => {
  const rsa = anIdentityProviderKey('RS256', 'rsa-1');
  const ec = anIdentityProviderKey('ES256', 'ec-1');

  it('keeps RSA keys for RS256 and P-256 keys for ES256, and skips every other key', () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' });
    const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const shortRsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    const keys = parseKeySet({
      keys: [
        rsa.jwk,
        ec.jwk,
        { ...p384, kid: 'p384' },
        { ...ed, kid: 'ed' },
        { kty: 'oct', k: 'c2VjcmV0', kid: 'oct' },
        { ...shortRsa, kid: 'short' },
        { ...rsa.jwk, kid: 'enc', use: 'enc' },
        { ...rsa.jwk, kid: 'ps256', alg: 'PS256' },
        { kty: 'RSA', n: 'broken', e: 'AQAB', kid: 'broken' },
        'not a key',
        null,
      ],
    });
    expect([...keys.entries()].map(([kid, key]) => [kid, key.algorithm])).toEqual([
      ['rsa-1', 'RS256'],
      ['ec-1', 'ES256'],
    ]);
  });

  it('answers no keys for a body that is not a key set', () => {
    for (const body of [null, 'keys', { keys: 'none' }, [rsa.jwk]]) expect(parseKeySet(body).size).toBe(0);
  });
});
