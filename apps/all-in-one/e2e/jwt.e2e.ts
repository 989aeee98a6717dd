import {
  aMemberToken,
  anIdentityProviderKey,
  eventually,
  JwksServer,
  type TokenOptions,
} from '@notify/testing';
import { type AllInOne, bootstrapKey, failedResponse, pingramIn, startAllInOne } from './all-in-one';

const ISSUER = 'https://idp.notify.test/';
const AUDIENCE = 'notify-api';
const OWNER = 'owner@notify.localhost';

/**
 * Members' JWTs against the all-in-one service with JWT_SECRET (HS256) and JWT_JWKS_URL (RS256 and
 * ES256 keys served by this test process), JWT_ISSUER and JWT_AUDIENCE set: every bad token is a
 * 401 with the error body; the bootstrap owner's token works through the pingram client, in the
 * environment it names with ?envId=.
 */
describe('members’ JWTs (all-in-one, HS256 and a JWKS, issuer and audience checked)', () => {
  const rsa = anIdentityProviderKey('RS256', 'rsa-1');
  const ec = anIdentityProviderKey('ES256', 'ec-1');
  let jwks: JwksServer;
  let app: AllInOne;
  let key: string;
  let envId: string;
  let clientSecret: string;
  /** A second environment of the default account, and a key of it. */
  let otherEnvId: string;

  /** A token as the configured identity provider issues it (HS256 unless a key is given). */
  const token = (options: TokenOptions = {}) =>
    aMemberToken({
      email: OWNER,
      sub: 'idp|owner',
      ...options,
      claims: { iss: ISSUER, aud: AUDIENCE, ...options.claims },
    });
  const call = (path: string, authorization: string, init: RequestInit = {}) =>
    fetch(`${app.baseUrl}${path}`, {
      ...init,
      headers: { authorization, 'content-type': 'application/json', ...(init.headers as object) },
    });
  const errorOf = async (response: Response) =>
    (await response.json()) as { trackingId: string; error: { code: string; message: string; fix?: string } };
  /** The pingram client in JWT mode; `envId`, when given, is added to every request's query. */
  const pingram = (jwt: string, envIdOfCalls?: string) => pingramIn(app.baseUrl, jwt, envIdOfCalls);
  /** The status and error body of a pingram call that must fail. */
  const failure = async (calling: Promise<unknown>) => {
    const response = await failedResponse(calling);
    return { status: response.status, ...(await errorOf(response)) };
  };
  const aSend = (to: string) => ({
    type: 'jwt_welcome',
    to: { id: 'jwt-user', email: to },
    email: { subject: 'Signed in with a JWT', html: '<p>sent by a member</p>' },
  });

  beforeAll(async () => {
    jwks = await new JwksServer().start();
    jwks.keys = [rsa.jwk, ec.jwk];
    app = await startAllInOne('notify-jwt-', {
      env: {
        JWT_JWKS_URL: jwks.url,
        JWT_ISSUER: ISSUER,
        JWT_AUDIENCE: AUDIENCE,
        // Bad tokens are sent on purpose; the failed-login limit is tested elsewhere.
        AUTH_FAILURES_PER_MINUTE: '1000',
      },
    });
    key = await bootstrapKey(app);
    const [environment] = (await (await call('/environments', `Bearer ${key}`)).json()) as {
      clientId: string;
      clientSecret: string;
    }[];
    envId = environment?.clientId ?? '';
    clientSecret = environment?.clientSecret ?? '';
    const created = await call('/environments', `Bearer ${key}`, {
      method: 'POST',
      body: JSON.stringify({ title: 'Staging' }),
    });
    otherEnvId = ((await created.json()) as { clientId: string }).clientId;
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await jwks?.stop();
  }, 60_000);

  it('refuses every bad token with 401 and the error body', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = token({ header: { alg: 'none' } })
      .split('.')
      .slice(0, 2)
      .join('.');
    const bad: [string, string, RegExp][] = [
      ['expired', token({ expiresIn: -3_600 }), /expired/],
      ['not yet valid', token({ claims: { nbf: now + 3_600 } }), /not valid yet/],
      ['wrong signature', token({ secret: 'another-secret-of-at-least-32-characters' }), /signature/],
      ['wrong audience', token({ claims: { aud: 'another-api' } }), /audience/],
      ['audiences without ours', token({ claims: { aud: ['a', 'b'] } }), /audience/],
      ['wrong issuer', token({ claims: { iss: 'https://evil.test/' } }), /issued by/],
      ['alg none', `${unsigned}.`, /alg "none"/],
      ['unknown kid', token({ key: { privateKey: rsa.privateKey, alg: 'RS256', kid: 'unknown' } }), /kid/],
      [
        'a JWKS key under another kid',
        token({ key: { privateKey: ec.privateKey, alg: 'ES256', kid: 'rsa-1' } }),
        /signature/,
      ],
      ['no exp', token({ claims: { exp: undefined } }), /expiry/],
      ['no email', token({ claims: { email: undefined } }), /email/],
      // The environment's client secret signs end users' hashes; it never signs a member's token.
      ['signed with the client secret', token({ secret: clientSecret }), /signature/],
    ];
    for (const [what, jwt, reason] of bad) {
      const response = await call(`/environments?envId=${envId}`, `Bearer ${jwt}`);
      expect({ what, status: response.status }).toEqual({ what, status: 401 });
      const body = await errorOf(response);
      expect(body).toEqual({
        trackingId: expect.any(String),
        error: { code: 'UNAUTHORIZED', message: expect.stringMatching(reason), fix: expect.any(String) },
      });
    }
  });

  it('lets the bootstrap owner act with a JWT through the pingram client, in the environment named by envId', async () => {
    const environments = await pingram(token(), envId).environments.listEnvironments();
    expect(environments.map((e) => e.clientId)).toContain(envId);
    // Tokens signed with the provider's RS256 and ES256 keys are as good.
    for (const jwt of [
      token({ key: { privateKey: rsa.privateKey, alg: 'RS256', kid: 'rsa-1' } }),
      token({ key: { privateKey: ec.privateKey, alg: 'ES256', kid: 'ec-1' } }),
    ])
      expect((await pingram(jwt, envId).environments.listEnvironments()).length).toBeGreaterThan(0);
  });

  it('accepts a send from the owner’s JWT with ?envId= and delivers it to that environment’s outbox', async () => {
    const { trackingId } = await pingram(token(), envId).send(aSend('reader@example.com'));
    expect(trackingId).toEqual(expect.any(String));
    const message = await eventually(async () => {
      const { messages } = (await (await call('/dev/outbox/email', `Bearer ${key}`)).json()) as {
        messages: { trackingId?: string; subject?: string }[];
      };
      const found = messages.find((m) => m.trackingId === trackingId);
      if (found === undefined) throw new Error('not in the outbox yet');
      return found;
    }, 30_000);
    expect(JSON.stringify(message)).toContain('Signed in with a JWT');
  });

  it('acts in any environment of the account the owner names', async () => {
    const { trackingId } = await pingram(token(), otherEnvId).send(aSend('staging@example.com'));
    expect(trackingId).toEqual(expect.any(String));
  });

  it('answers 400 MISSING_ENV_ID for an environment-scoped call without envId', async () => {
    const missing = await failure(pingram(token()).send(aSend('reader@example.com')));
    expect(missing).toMatchObject({
      status: 400,
      error: { code: 'MISSING_ENV_ID', fix: expect.stringContaining('envId') },
    });
  });

  it('answers 404 for an unknown environment, and for a key naming another environment than its own', async () => {
    const unknown = await failure(pingram(token(), 'no-such-env').send(aSend('reader@example.com')));
    expect(unknown).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
    const keyElsewhere = await call(`/send?envId=${otherEnvId}`, `Bearer ${key}`, {
      method: 'POST',
      body: JSON.stringify(aSend('reader@example.com')),
    });
    expect(keyElsewhere.status).toBe(404);
    expect((await errorOf(keyElsewhere)).error).toMatchObject({
      code: 'NOT_FOUND',
      message: `No environment ${otherEnvId} for this key.`,
    });
    const keyHome = await call(`/environments?envId=${envId}`, `Bearer ${key}`);
    expect(keyHome.status).toBe(200);
  });

  it('answers 403 FORBIDDEN for a good token of a person who is no member', async () => {
    const stranger = await failure(
      pingram(
        token({ email: 'stranger@example.com', sub: 'idp|stranger' }),
        envId,
      ).environments.listEnvironments(),
    );
    expect(stranger).toMatchObject({
      status: 403,
      error: { code: 'FORBIDDEN', message: expect.stringContaining('stranger@example.com') },
    });
  });

  it('keeps the owner bound to the sub of the first token: another sub for the same email is refused', async () => {
    const impostor = await failure(
      pingram(token({ sub: 'other-idp|owner' }), envId).environments.listEnvironments(),
    );
    expect(impostor).toMatchObject({
      status: 403,
      error: { code: 'FORBIDDEN', message: expect.stringMatching(/bound/) },
    });
  });

  it('takes no key from a JWT: its pieces as a public key, or claims of a key, are refused', async () => {
    const [, payload] = token().split('.');
    const asPublicKey = await call(`/environments`, `Bearer notify_pk_${(payload ?? '').slice(0, 32)}`);
    expect(asPublicKey.status).toBe(401);
    const claimingKey = token({ claims: { keyType: 'public', envId: otherEnvId, role: 'member' } });
    // Claims beyond sub and email change nothing: the owner's role comes from the store.
    const environments = await pingram(claimingKey, envId).environments.listEnvironments();
    expect(environments.map((e) => e.clientId)).toContain(envId);
  });

  it('still takes the older SDKs’ Basic clientId:clientSecret, as a key of that environment', async () => {
    const basic = `Basic ${Buffer.from(`${envId}:${clientSecret}`).toString('base64')}`;
    const response = await call('/environments', basic);
    expect(response.status).toBe(200);
    const wrong = `Basic ${Buffer.from(`${envId}:not-the-client-secret`).toString('base64')}`;
    expect((await call('/environments', wrong)).status).toBe(401);
  });
});
