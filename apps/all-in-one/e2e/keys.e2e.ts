import { aMemberToken, uniqueName } from '@notify/testing';
import { createHmac } from 'node:crypto';
import { CreateKeyRequestKeyTypeEnum, Pingram } from 'pingram';
import { framesOf, openInboxSocket } from './inapp.suite';
import { type AllInOne, bootstrapKey, callAs, failedResponse, pingramIn, startAllInOne } from './all-in-one';

/**
 * Environments and keys across an account, through the pingram client with a member's JWT and
 * with API keys: a member administers every environment of the account, a key only its own;
 * public keys stand in for the client id on the browser routes and nothing else; a reset client
 * secret stops at once; `?envId=` of the users operations is honoured.
 */
describe('environments and keys across an account (all-in-one)', () => {
  let app: AllInOne;
  let base: string;
  /** The bootstrap key of the default environment (A). */
  let keyA: string;
  let envA: string;
  let secretA: string;
  /** A second environment (B), created by the owner signed in with a JWT. */
  let envB: string;
  const jwt = aMemberToken({ email: 'owner@notify.localhost' });

  const client = (apiKey: string, envId?: string) => pingramIn(base, apiKey, envId);
  const member = (envId?: string) => client(jwt, envId);
  /** The status and error code a pingram call failed with. */
  const failure = async (call: Promise<unknown>) => {
    const response = await failedResponse(call);
    const body = (await response.json()) as { error?: { code?: string } };
    return { status: response.status, code: body.error?.code };
  };
  const hash = (userId: string, secret = secretA) =>
    createHmac('sha256', secret).update(userId).digest('base64');
  const basic = (...parts: string[]) => `Basic ${Buffer.from(parts.join(':')).toString('base64')}`;
  /** A call as @notificationapi/core makes it: `/{clientId}/users/{userId}/…`, Basic credentials. */
  const browser = (
    clientId: string,
    userId: string,
    path: string,
    auth = basic(clientId, userId, hash(userId)),
  ) =>
    fetch(`${base}/${clientId}/users/${encodeURIComponent(userId)}/${path}`, {
      headers: { authorization: auth },
    });
  const bearer = (token: string, path: string, init: RequestInit = {}) => callAs(base, path, token, init);

  beforeAll(async () => {
    app = await startAllInOne('notify-keys-', { env: { AUTH_FAILURES_PER_MINUTE: '1000' } });
    base = app.baseUrl;
    keyA = await bootstrapKey(app);
    const [environment] = await client(keyA).environments.listEnvironments();
    envA = environment?.clientId ?? '';
    secretA = environment?.clientSecret ?? '';
    envB = (await member().environments.createEnvironment({ title: 'Staging' })).clientId;
  }, 120_000);

  afterAll(() => app?.stop(), 60_000);

  it('lets a member list and update every environment of the account, and create a key in each', async () => {
    const listed = await member().environments.listEnvironments();
    expect(listed.map((e) => e.clientId)).toEqual([envA, envB]);
    // A key still sees its own environment only.
    expect((await client(keyA).environments.listEnvironments()).map((e) => e.clientId)).toEqual([envA]);

    for (const [clientId, title] of [
      [envA, 'Production (renamed)'],
      [envB, 'Staging (renamed)'],
    ] as const) {
      const updated = await member().environments.updateEnvironment(clientId, { title });
      expect(updated).toMatchObject({ clientId, title });
      const created = await member().keys.createAPIKey({
        keyType: CreateKeyRequestKeyTypeEnum.SECRET,
        name: `ci ${title}`,
        environmentId: clientId,
      });
      expect(created).toMatchObject({ keyType: 'secret', environmentId: clientId, name: `ci ${title}` });
      expect(created.key).toMatch(/^notify_sk_/);
      // The new key acts in the environment it was made for.
      expect((await client(created.key).environments.listEnvironments()).map((e) => e.clientId)).toEqual([
        clientId,
      ]);
      const { keys } = await member(clientId).keys.listAPIKeys();
      expect(keys.find((k) => k.id === created.id)).toMatchObject({
        keyType: 'secret',
        environmentId: clientId,
        revoked: false,
        key: `${created.key.slice(0, 14)}…`,
      });
      expect(keys.every((k) => k.environmentId === clientId)).toBe(true);
    }
    expect((await member().environments.listEnvironments()).map((e) => e.title)).toEqual([
      'Production (renamed)',
      'Staging (renamed)',
    ]);
  });

  it('needs a member to name the environment of a key (400 MISSING_ENV_ID), one of the account (404)', async () => {
    const create = (environmentId?: string) =>
      member().keys.createAPIKey({
        keyType: CreateKeyRequestKeyTypeEnum.SECRET,
        name: 'x',
        ...(environmentId !== undefined ? { environmentId } : {}),
      });
    expect(await failure(create())).toEqual({ status: 400, code: 'MISSING_ENV_ID' });
    expect(await failure(member().keys.listAPIKeys())).toEqual({ status: 400, code: 'MISSING_ENV_ID' });
    expect(await failure(create('no-such-environment'))).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(
      await failure(member().environments.updateEnvironment('no-such-environment', { title: 'x' })),
    ).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    // ?envId= names the environment as the body's environmentId does.
    const byQuery = await member(envB).keys.createAPIKey({
      keyType: CreateKeyRequestKeyTypeEnum.SECRET,
      name: 'q',
    });
    expect(byQuery.environmentId).toBe(envB);
  });

  it("lets a member revoke any key of the account by id: it stops at once; a key cannot touch another environment's (404)", async () => {
    const keyB = await member().keys.createAPIKey({
      keyType: CreateKeyRequestKeyTypeEnum.SECRET,
      name: 'b',
      environmentId: envB,
    });
    // Environment A's key and environment B: 404 for everything of B.
    expect(await failure(client(keyA, envB).keys.listAPIKeys())).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await failure(client(keyA).keys.revokeAPIKey(keyB.id))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await failure(client(keyA).environments.updateEnvironment(envB, { title: 'Taken over' }))).toEqual(
      {
        status: 404,
        code: 'NOT_FOUND',
      },
    );
    expect(
      await failure(
        client(keyA).keys.createAPIKey({
          keyType: CreateKeyRequestKeyTypeEnum.SECRET,
          name: 'x',
          environmentId: envB,
        }),
      ),
    ).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect((await client(keyB.key).environments.listEnvironments())[0]?.title).toBe('Staging (renamed)');

    // The member revokes it by id alone.
    expect(await member().keys.revokeAPIKey(keyB.id)).toEqual({ message: 'API key revoked' });
    expect(await failure(client(keyB.key).environments.listEnvironments())).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    const { keys } = await member(envB).keys.listAPIKeys();
    expect(keys.find((k) => k.id === keyB.id)?.revoked).toBe(true);
    expect(await failure(member().keys.revokeAPIKey(keyB.id))).toEqual({ status: 404, code: 'NOT_FOUND' });
    // A key revokes keys of its own environment, as before.
    const own = await client(keyA).keys.createAPIKey({
      keyType: CreateKeyRequestKeyTypeEnum.SECRET,
      name: 'own',
    });
    expect(own.environmentId).toBe(envA);
    await client(keyA).keys.revokeAPIKey(own.id);
    expect(await failure(client(own.key).environments.listEnvironments())).toMatchObject({ status: 401 });
  });

  it('lets a public key stand in for the client id on the browser routes (REST and WebSocket), and nothing else', async () => {
    const pub = await client(keyA).keys.createAPIKey({
      keyType: CreateKeyRequestKeyTypeEnum.PUBLIC,
      name: 'web',
    });
    expect(pub).toMatchObject({ keyType: 'public', environmentId: envA });
    expect(pub.key).toMatch(/^notify_pk_/);
    const listed = (await client(keyA).keys.listAPIKeys()).keys.find((k) => k.id === pub.id);
    expect(listed).toMatchObject({ keyType: 'public', revoked: false });

    const userId = uniqueName('pk-user');
    // The browser library's calls with clientId = the public key, in the path and the credentials.
    expect((await browser(pub.key, userId, 'preferences')).status).toBe(200);
    expect((await browser(pub.key, userId, 'notifications/INAPP_WEB?count=5')).status).toBe(200);
    // The path may name the environment id instead.
    expect((await browser(envA, userId, 'preferences', basic(pub.key, userId, hash(userId)))).status).toBe(
      200,
    );
    // The pingram UserApi with the public key in its Basic credentials.
    const userApi = new Pingram({
      apiKey: 'unused',
      baseUrl: base,
      headers: { Authorization: basic(pub.key, userId, hash(userId)) },
    }).user;
    expect(await userApi.getInAppUnreadCount()).toEqual({ count: 0 });
    // Secure mode still needs the user's HMAC.
    expect((await browser(pub.key, userId, 'preferences', basic(pub.key, userId))).status).toBe(401);
    expect(
      (await browser(pub.key, userId, 'preferences', basic(pub.key, userId, hash(userId, 'wrong')))).status,
    ).toBe(401);

    // The WebSocket with envId = the public key receives what the environment sends the user.
    const socket = await openInboxSocket(base, { envId: pub.key, userId, userIdHash: hash(userId) });
    try {
      const { trackingId } = await client(keyA).send({
        type: 'keys-inbox',
        to: { id: userId },
        inapp: { title: 'Hi' },
      });
      const [item] = await framesOf(socket, trackingId);
      expect(item).toMatchObject({ id: trackingId, title: 'Hi' });
      expect(await userApi.getInAppUnreadCount()).toEqual({ count: 1 });
    } finally {
      socket.close();
    }

    // Every server route refuses it with 403.
    for (const [method, path] of [
      ['POST', '/send'],
      ['GET', '/users'],
      ['GET', '/keys'],
      ['POST', '/keys'],
      ['GET', '/environments'],
      ['GET', '/users/account-metadata'],
    ] as const) {
      const refused = await bearer(pub.key, path, {
        method,
        ...(method === 'POST'
          ? { body: JSON.stringify({ keyType: 'secret', name: 'x', type: 't', to: { id: 'u' } }) }
          : {}),
      });
      expect({ path, status: refused.status }).toEqual({ path, status: 403 });
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    }
    expect(await failure(client(pub.key).send({ type: 't', to: { id: 'u' } }))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });

    // Revoked: refused at once on REST and on the WebSocket.
    await member().keys.revokeAPIKey(pub.id);
    expect((await browser(pub.key, userId, 'preferences')).status).toBe(401);
    expect(await failure(userApi.getInAppUnreadCount())).toMatchObject({ status: 401 });
    await expect(openInboxSocket(base, { envId: pub.key, userId, userIdHash: hash(userId) })).rejects.toThrow(
      'upgrade refused: 401',
    );
  });

  it("stops the older SDKs' Basic clientId:clientSecret at once when the secret is reset", async () => {
    const [environment] = (await member().environments.listEnvironments()).filter((e) => e.clientId === envB);
    const old = environment?.clientSecret ?? '';
    const asSdk = (secret: string) =>
      fetch(`${base}/users?limit=1`, { headers: { authorization: basic(envB, secret) } });
    expect((await asSdk(old)).status).toBe(200);
    const reset = await member().environments.updateEnvironment(envB, { resetSecret: true });
    expect(reset.clientSecret).not.toBe(old);
    expect((await asSdk(old)).status).toBe(401);
    expect((await asSdk(reset.clientSecret)).status).toBe(200);
  });

  it('honours ?envId= on deleteUser, listUsers and removeUserFromSuppression', async () => {
    const keyB = await member().keys.createAPIKey({
      keyType: CreateKeyRequestKeyTypeEnum.SECRET,
      name: 'users',
      environmentId: envB,
    });
    const victim = uniqueName('victim');
    await client(keyA).user.identify(victim, { id: victim, email: 'victim-a@example.test' });
    await client(keyB.key).user.identify(victim, { id: victim, email: 'victim-b@example.test' });

    // A key naming an environment it does not belong to: 404, and nothing is deleted anywhere.
    expect(await failure(client(keyA).users.deleteUser(victim, 'no-such-environment'))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await failure(client(keyA).users.deleteUser(victim, envB))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await failure(client(keyA).users.listUsers(10, '', envB))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(await failure(client(keyA).users.removeUserFromSuppression(victim, 'EMAIL', envB))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect((await client(keyA).user.getUser(victim)).email).toBe('victim-a@example.test');
    expect((await client(keyB.key).user.getUser(victim)).email).toBe('victim-b@example.test');

    // A member acts in the environment it names.
    const emailsIn = async (envId: string) =>
      (await member().users.listUsers(100, '', envId)).users
        .filter((u) => u.id === victim)
        .map((u) => u.email);
    expect(await emailsIn(envA)).toEqual(['victim-a@example.test']);
    expect(await emailsIn(envB)).toEqual(['victim-b@example.test']);
    expect((await member().users.removeUserFromSuppression(victim, 'EMAIL', envB)).user).toMatchObject({
      id: victim,
      email: 'victim-b@example.test',
    });
    expect(await failure(member().users.deleteUser(victim))).toEqual({ status: 400, code: 'MISSING_ENV_ID' });
    await member().users.deleteUser(victim, envB);
    expect(await emailsIn(envB)).toEqual([]);
    expect(await emailsIn(envA)).toEqual(['victim-a@example.test']);
    await member().users.deleteUser(victim, envA);
    expect(await emailsIn(envA)).toEqual([]);
  });

  it("answers getAccountMetadata with the environment's web push metadata, not a user record", async () => {
    const ofA = await client(keyA).user.getAccountMetadata();
    expect(ofA).toEqual({
      userAccountMetadata: {
        logo: '',
        environmentVapidPublicKey: expect.stringMatching(/^[A-Za-z0-9_-]{80,}$/),
        hasWebPushEnabled: true,
      },
    });
    // The browser's own route answers the same.
    const userId = uniqueName('meta');
    const browserAnswer = await browser(envA, userId, 'account_metadata');
    expect(await browserAnswer.json()).toEqual(ofA);
    // A member names the environment; each has its own key pair.
    expect(await member(envA).user.getAccountMetadata()).toEqual(ofA);
    const ofB = await member(envB).user.getAccountMetadata();
    expect(ofB.userAccountMetadata.environmentVapidPublicKey).not.toBe(
      ofA.userAccountMetadata.environmentVapidPublicKey,
    );
    expect(await failure(member().user.getAccountMetadata())).toEqual({
      status: 400,
      code: 'MISSING_ENV_ID',
    });
  });
});
