import { createFcmClient, type FcmClient } from '@notify/providers';
import type { Message } from 'firebase-admin/messaging';
import { sign } from 'node:crypto';
import { request } from 'node:https';
import { FcmPeer, type GoogleServiceAccount } from './fcm-peer';

const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

describe('FcmPeer through firebase-admin', () => {
  const peer = new FcmPeer({ keep: 50 });
  let account: GoogleServiceAccount;
  let client: FcmClient;
  const clientOf = (key: GoogleServiceAccount) =>
    createFcmClient(
      { projectId: key.project_id, clientEmail: key.client_email, privateKey: key.private_key },
      { url: peer.url, ca: peer.ca },
    );

  beforeAll(async () => {
    await peer.start();
    account = peer.registerServiceAccount('notify-test');
    client = clientOf(account);
  });
  afterAll(async () => {
    await client.close();
    await peer.stop();
  });

  const aMessage = (token: string, overrides: Partial<Message> = {}): Message => ({
    token,
    notification: { title: 'Order shipped', body: 'Arrives Tuesday' },
    data: { orderId: '42' },
    android: {
      collapseKey: 'orders',
      priority: 'high',
      ttl: 3_600_000,
      restrictedPackageName: 'com.example.app',
    },
    fcmOptions: { analyticsLabel: 'track-1' },
    ...overrides,
  });

  it('keeps a message sent with every android option and the analytics label', async () => {
    const answer = await client.sendEach([aMessage('device-token-1')]);
    expect(answer).toMatchObject({ successCount: 1, failureCount: 0 });
    const name = answer.responses[0]?.messageId ?? '';
    expect(name).toMatch(/^projects\/notify-test\/messages\/0:\d+%[0-9a-f]{16}$/);
    expect(peer.messages().at(-1)).toEqual({
      id: name.split('/').at(-1),
      receivedAt: expect.any(String),
      trackingId: 'track-1',
      projectId: 'notify-test',
      token: 'device-token-1',
      title: 'Order shipped',
      body: 'Arrives Tuesday',
      data: { orderId: '42' },
      android: {
        collapse_key: 'orders',
        priority: 'high',
        ttl: '3600s',
        restricted_package_name: 'com.example.app',
      },
    });
  });

  it('keeps the apns block of a message as FCM would forward it', async () => {
    const apns = { headers: { 'apns-priority': '5' }, payload: { aps: { badge: 3 } } };
    await client.sendEach([aMessage('device-token-2', { apns })]);
    expect(peer.messages().at(-1)?.apns).toEqual({
      headers: { 'apns-priority': '5' },
      payload: { aps: { badge: 3 } },
    });
  });

  it('answers a dead token UNREGISTERED, which firebase-admin reports as not registered', async () => {
    const before = peer.deliveries();
    const answer = await client.sendEach([aMessage('live-1'), aMessage('dead-beef'), aMessage('live-2')]);
    expect(answer).toMatchObject({ successCount: 2, failureCount: 1 });
    expect(answer.responses.map((r) => r.success)).toEqual([true, false, true]);
    expect(answer.responses[1]?.error).toMatchObject({
      code: 'messaging/registration-token-not-registered',
      message: 'Requested entity was not found.',
    });
    expect(peer.deliveries()).toBe(before + 2);
  });

  it('refuses the token exchange of an account it does not know, and accepts it once given', async () => {
    const stranger = new FcmPeer().registerServiceAccount('notify-other');
    const strangerClient = clientOf(stranger);
    try {
      const refused = await strangerClient.sendEach([aMessage('device-token-3')]);
      expect(refused.responses[0]?.error).toMatchObject({
        code: 'app/invalid-credential',
        message: expect.stringContaining('invalid_grant: Invalid grant: account not found'),
      });
      peer.acceptServiceAccount(stranger);
      const accepted = await strangerClient.sendEach([aMessage('device-token-3')]);
      expect(accepted.successCount).toBe(1);
      expect(peer.messages().at(-1)).toMatchObject({ projectId: 'notify-other', token: 'device-token-3' });
    } finally {
      await strangerClient.close();
    }
  });

  it('stands in for Google for any well-formed account with acceptAnyAccount, still verifying the ones it was given', async () => {
    const open = new FcmPeer({ acceptAnyAccount: true });
    await open.start();
    const own = new FcmPeer().registerServiceAccount('tenant-own');
    const given = open.registerServiceAccount('given');
    const forged = { ...given, private_key: own.private_key };
    const [ownClient, forgedClient] = [own, forged].map((key) =>
      createFcmClient(
        { projectId: key.project_id, clientEmail: key.client_email, privateKey: key.private_key },
        { url: open.url, ca: open.ca },
      ),
    );
    try {
      expect((await ownClient.sendEach([aMessage('device-token-4')])).successCount).toBe(1);
      expect(open.messages().at(-1)).toMatchObject({ projectId: 'tenant-own', token: 'device-token-4' });
      const refused = await forgedClient.sendEach([aMessage('device-token-5')]);
      expect(refused.responses[0]?.error?.message).toContain('Invalid JWT Signature');
    } finally {
      await Promise.all([ownClient.close(), forgedClient.close()]);
      await open.stop();
    }
  });

  it('keeps at most `keep` messages, removes by id and tells listeners', async () => {
    const small = new FcmPeer({ keep: 2 });
    await small.start();
    const key = small.registerServiceAccount();
    const smallClient = createFcmClient(
      { projectId: key.project_id, clientEmail: key.client_email, privateKey: key.private_key },
      { url: small.url, ca: small.ca },
    );
    const heard: string[] = [];
    const stop = small.onMessage((m) => heard.push(m.token));
    try {
      await smallClient.sendEach([aMessage('t1')]);
      await smallClient.sendEach([aMessage('t2')]);
      await smallClient.sendEach([aMessage('t3')]);
      stop();
      await smallClient.sendEach([aMessage('t4')]);
      expect(heard).toEqual(['t1', 't2', 't3']);
      expect(small.messages().map((m) => m.token)).toEqual(['t3', 't4']);
      small.remove([small.messages()[0]?.id ?? '']);
      expect(small.messages().map((m) => m.token)).toEqual(['t4']);
      expect(small.deliveries()).toBe(4);
    } finally {
      await smallClient.close();
      await small.stop();
    }
  });

  describe('over HTTP, as Google answers', () => {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const outgoing = request(
          `${peer.url}${path}`,
          { method: 'POST', ca: peer.ca, headers: { 'content-type': 'application/json', ...headers } },
          (response) => {
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    const jwt = (claims: Record<string, unknown>, key = account.private_key) => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const input = `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}`;
      return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
    };
    const now = () => Math.floor(Date.now() / 1000);
    const grant = (assertion: string, grantType = 'urn:ietf:params:oauth:grant-type:jwt-bearer') =>
      post('/token', new URLSearchParams({ grant_type: grantType, assertion }).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
      });
    const claims = (overrides: Record<string, unknown> = {}) => ({
      iss: account.client_email,
      scope: FCM_SCOPE,
      aud: 'https://oauth2.googleapis.com/token',
      iat: now(),
      exp: now() + 3_600,
      ...overrides,
    });
    const accessToken = async () => {
      const { body } = await grant(jwt(claims()));
      return (body as { access_token: string }).access_token;
    };
    const send = async (message: unknown, project = 'notify-test') =>
      post(`/v1/projects/${project}/messages:send`, JSON.stringify({ message }), {
        authorization: `Bearer ${await accessToken()}`,
      });

    it('issues an access token for a signed assertion', async () => {
      expect(await grant(jwt(claims()))).toEqual({
        status: 200,
        body: { access_token: expect.stringMatching(/^ya29\./), expires_in: 3599, token_type: 'Bearer' },
      });
    });

    it.each([
      ['an expired assertion', 'invalid_grant', () => grant(jwt(claims({ iat: now() - 3_700, exp: now() })))],
      [
        'a foreign signature',
        'invalid_grant',
        () => grant(jwt(claims(), new FcmPeer().registerServiceAccount().private_key)),
      ],
      ['no FCM scope', 'invalid_scope', () => grant(jwt(claims({ scope: 'openid' })))],
      ['another grant type', 'unsupported_grant_type', () => grant(jwt(claims()), 'client_credentials')],
    ])('refuses %s with 400 %s', async (_, error, answer) => {
      expect(await answer()).toEqual({
        status: 400,
        body: { error, error_description: expect.any(String) },
      });
    });

    it('refuses a send without a token it issued with 401 UNAUTHENTICATED', async () => {
      const answer = await post('/v1/projects/notify-test/messages:send', '{}', {
        authorization: 'Bearer ya29.nope',
      });
      expect(answer).toEqual({
        status: 401,
        body: { error: { code: 401, message: expect.any(String), status: 'UNAUTHENTICATED' } },
      });
    });

    it('refuses a token of another project with 403 PERMISSION_DENIED', async () => {
      expect(await send({ token: 'x' }, 'someone-else')).toMatchObject({
        status: 403,
        body: { error: { code: 403, status: 'PERMISSION_DENIED' } },
      });
    });

    it('answers dead and missing tokens with FCM error bodies', async () => {
      expect(await send({ token: 'deadbeef' })).toEqual({
        status: 404,
        body: {
          error: {
            code: 404,
            message: 'Requested entity was not found.',
            status: 'NOT_FOUND',
            details: [{ '@type': FCM_ERROR, errorCode: 'UNREGISTERED' }],
          },
        },
      });
      expect(await send({ token: '' })).toEqual({
        status: 400,
        body: {
          error: {
            code: 400,
            message: 'The registration token is not a valid FCM registration token',
            status: 'INVALID_ARGUMENT',
            details: [{ '@type': FCM_ERROR, errorCode: 'INVALID_ARGUMENT' }],
          },
        },
      });
    });

    it('validates without keeping when validate_only is set', async () => {
      const before = peer.deliveries();
      const answer = await post(
        '/v1/projects/notify-test/messages:send',
        JSON.stringify({ message: { token: 'abc' }, validate_only: true }),
        { authorization: `Bearer ${await accessToken()}` },
      );
      expect(answer).toEqual({
        status: 200,
        body: { name: 'projects/notify-test/messages/fake_message_id' },
      });
      expect(peer.deliveries()).toBe(before);
    });
  });
});
