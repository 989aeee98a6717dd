import {
  awayFromMinuteBoundary,
  eventually,
  type RunningService,
  startService,
  tempDir,
  uniqueName,
} from '@notify/testing';
import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';

/**
 * The all-in-one service as `npm start` runs it (local mail catcher, egress to private addresses
 * refused, secure defaults), with low limits so each can be reached: what an attacker holding one
 * API key, or none, can and cannot do.
 */
describe('hardening (all-in-one, default egress policy, low limits)', () => {
  let data: { path: string; remove: () => Promise<void> };
  let service: RunningService;
  let base: string;
  let key: string;
  let envId: string;
  let secret: string;
  /** A key of a second environment of the same account. */
  let otherKey: string;

  const env = () => ({
    DATA_DIR: data.path,
    LOG_LEVEL: 'warn',
    AUTH_FAILURES_PER_MINUTE: '5',
    MAX_KEYS_PER_ENVIRONMENT: '3',
    MAX_ENVIRONMENTS_PER_ACCOUNT: '2',
    MAX_SCHEDULE_AHEAD_DAYS: '1',
    LOG_QUERIES_PER_ENVIRONMENT: '1',
    TRACKING_REQUESTS_PER_MINUTE: '5',
    SCHEDULED_SENDS_PER_ENVIRONMENT: '2',
    SCHEDULED_SENDS_ENVIRONMENT_MAX_MB: '1',
  });

  const call = (path: string, init: RequestInit & { as?: string | null; from?: string } = {}) => {
    const { as, from, ...rest } = init;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...(rest.headers as object),
    };
    if (as !== null) headers.authorization = `Bearer ${as ?? key}`;
    // Each test that fails authentications on purpose comes "from" its own address.
    if (from !== undefined) headers['x-forwarded-for'] = from;
    return fetch(`${base}${path}`, { ...rest, headers });
  };
  const errorOf = async (response: Response) =>
    ((await response.json()) as { error: { code: string; message: string } }).error;

  beforeAll(async () => {
    data = await tempDir('notify-hardening-');
    // TRUST_PROXY=1 for this instance only, so tests can stand for different client addresses.
    service = await startService('all-in-one', { ...env(), TRUST_PROXY: '1' });
    base = service.baseUrl;
    key = (await readFile(join(data.path, 'api-key.txt'), 'utf8')).trim();
    const [environment] = (await (await call('/environments')).json()) as {
      clientId: string;
      clientSecret: string;
    }[];
    envId = environment?.clientId ?? '';
    secret = environment?.clientSecret ?? '';
    const created = (await (
      await call('/environments', { method: 'POST', body: JSON.stringify({ title: 'second' }) })
    ).json()) as { apiKey: string };
    otherKey = created.apiKey;
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await data?.remove();
  }, 60_000);

  it('shows the API key on the first start only, and keeps its files private (0600/0700)', async () => {
    expect(service.output()).toContain(`API key   ${key}`);
    const paths = [
      data.path,
      ...(await readdir(data.path, { recursive: true })).map((p) => join(data.path, p)),
    ];
    expect(paths.length).toBeGreaterThan(5);
    const open = [];
    for (const path of paths) if (((await stat(path)).mode & 0o077) !== 0) open.push(path);
    expect(open).toEqual([]);
  });

  it('starts environments in secure mode: browser calls need the HMAC of the user id', async () => {
    const [environment] = (await (await call('/environments')).json()) as { secureMode: boolean }[];
    expect(environment?.secureMode).toBe(true);
    const path = `/${envId}/users/ann/preferences`;
    const basic = (hash: string) => `Basic ${Buffer.from(`${envId}:ann:${hash}`).toString('base64')}`;
    const from = '198.51.100.1';
    expect((await call(path, { as: null, from, headers: { authorization: basic('') } })).status).toBe(401);
    expect((await call(path, { as: null, from, headers: { authorization: basic('bm90IGl0') } })).status).toBe(
      401,
    );
    const hash = createHmac('sha256', secret).update('ann').digest('base64');
    expect((await call(path, { as: null, from, headers: { authorization: basic(hash) } })).status).toBe(200);
  });

  it('refuses an SMTP relay whose URL carries options (sendmail!) or points at a private host; stores nothing', async () => {
    const patch = (smtpUrl: string) =>
      call(`/environments/${envId}`, {
        method: 'PATCH',
        body: JSON.stringify({ smtpUrl, title: 'changed?' }),
      });
    const attempts: [string, RegExp][] = [
      [
        'smtp://relay.example.com/?sendmail=true&path=/bin/sh&args=-c&args=touch%20/tmp/pwned',
        /query options/,
      ],
      ['smtp://127.0.0.1:2525', /private address/],
      ['smtps://user:pw@localhost:465', /private address/],
      ['smtp://[::ffff:7f00:1]:25', /private address/],
      ['smtp://169.254.169.254', /private address/],
      ['smtp://no-such-host.invalid', /does not resolve/],
      ['http://relay.example.com', /scheme must be smtp or smtps/],
    ];
    for (const [url, reason] of attempts) {
      const response = await patch(url);
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.code).toBe('INVALID_PROVIDER_SETTING');
      expect(error.message).toMatch(reason);
    }
    const [environment] = (await (await call('/environments')).json()) as Record<string, unknown>[];
    expect(environment).not.toHaveProperty('smtpUrl');
    expect(environment?.title).toBe('Development');
  });

  it('validates every cc/bcc/reply-to address and caps their number', async () => {
    const send = (email: Record<string, unknown>) =>
      call('/send', {
        method: 'POST',
        body: JSON.stringify({
          type: 'x',
          to: { id: 'u', email: 'u@example.com' },
          email: { subject: 's', html: 'h' },
          options: { email },
        }),
      });
    const lists = await send({ ccAddresses: ['a@example.com, b@example.com, c@example.com'] });
    expect(lists.status).toBe(400);
    expect((await errorOf(lists)).message).toContain('options.email.ccAddresses.0');
    const injected = await send({ replyToAddresses: ['a@example.com\r\nBcc: spy@evil.test'] });
    expect(injected.status).toBe(400);
    const many = await send({ bccAddresses: Array.from({ length: 51 }, (_, i) => `u${i}@example.com`) });
    expect(many.status).toBe(400);
    expect((await errorOf(many)).message).toContain('options.email.bccAddresses');
  });

  it('answers odd paths and deep bodies with 4xx and the error body, never 500', async () => {
    const percent = await call('/logs/abc%25');
    expect(percent.status).toBe(404);
    expect((await errorOf(percent)).code).toBe('NOT_FOUND');
    // Built as text: JSON.stringify itself cannot nest this deep.
    const parameters = `${'{"p":'.repeat(5_000)}"leaf"${'}'.repeat(5_000)}`;
    const deep = await call('/send', {
      method: 'POST',
      body: `{"type":"x","to":{"id":"u"},"parameters":${parameters}}`,
    });
    expect(deep.status).toBe(400);
    expect((await errorOf(deep)).code).toBe('INVALID_JSON');
    const far = await call('/send', {
      method: 'POST',
      body: JSON.stringify({
        type: 'x',
        to: { id: 'u' },
        schedule: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      }),
    });
    expect(far.status).toBe(400);
    expect((await errorOf(far)).code).toBe('SCHEDULE_TOO_FAR_AHEAD');
    const longId = await call(`/users/${'u'.repeat(300)}`);
    expect(longId.status).toBe(400);
    expect((await errorOf(longId)).message).toContain('userId');
  });

  it('caps the scheduled sends waiting per environment, by count and by size (402 SCHEDULE_QUOTA_EXCEEDED)', async () => {
    const schedule = (as: string, parameters: object = {}) =>
      call('/send', {
        method: 'POST',
        as,
        body: JSON.stringify({
          type: 'later',
          to: { id: 'u', email: 'u@example.com' },
          email: { subject: 's', html: '<p>later</p>' },
          parameters,
          schedule: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      });
    // Size: 1 MB of waiting sends per environment (the second environment's, kept apart).
    expect((await schedule(otherKey, { blob: 'x'.repeat(600_000) })).status).toBe(200);
    const large = await schedule(otherKey, { blob: 'x'.repeat(600_000) });
    expect(large.status).toBe(402);
    expect(await errorOf(large)).toMatchObject({
      code: 'SCHEDULE_QUOTA_EXCEEDED',
      message: expect.stringContaining('1 MB'),
    });
    // Count: two waiting sends; a deleted one makes room again.
    const first = (await (await schedule(key)).json()) as { trackingId: string };
    expect((await schedule(key)).status).toBe(200);
    const third = await schedule(key);
    expect(third.status).toBe(402);
    expect(await errorOf(third)).toMatchObject({
      code: 'SCHEDULE_QUOTA_EXCEEDED',
      message: expect.stringContaining('2 scheduled sends'),
    });
    expect((await call(`/sender/scheduler/${first.trackingId}`, { method: 'DELETE' })).status).toBe(200);
    expect((await schedule(key)).status).toBe(200);
  });

  it('caps active keys per environment and environments per account (400 LIMIT_REACHED)', async () => {
    const create = () =>
      call('/keys', { method: 'POST', body: JSON.stringify({ keyType: 'secret', name: 'k' }) });
    // The bootstrap key is the first of 3.
    const first = (await (await create()).json()) as { id: string };
    expect((await create()).status).toBe(200);
    const over = await create();
    expect(over.status).toBe(400);
    expect(await errorOf(over)).toMatchObject({
      code: 'LIMIT_REACHED',
      message: expect.stringContaining('3 active API keys'),
    });
    expect((await call(`/keys/${first.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await create()).status).toBe(200);

    // The default environment and the second one make two, the limit.
    const tooMany = await call('/environments', {
      method: 'POST',
      body: JSON.stringify({ title: uniqueName('env') }),
    });
    expect(tooMany.status).toBe(400);
    expect((await errorOf(tooMany)).code).toBe('LIMIT_REACHED');
  });

  it('limits concurrent log queries per environment (429 with Retry-After)', async () => {
    const query = () =>
      call('/logs/query', {
        method: 'POST',
        body: JSON.stringify({ dateRangeFilter: [0, Math.floor(Date.now() / 1000)] }),
      });
    const answers = await Promise.all(Array.from({ length: 8 }, query));
    const statuses = answers.map((a) => a.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(429);
    const limited = answers.find((a) => a.status === 429);
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await errorOf(limited as Response)).code).toBe('TOO_MANY_LOG_QUERIES');
  });

  it('records the client address it was told by a trusted proxy, and no credentials in the request log', async () => {
    const sent = await call('/send', {
      method: 'POST',
      from: '192.0.2.44',
      body: JSON.stringify({
        type: 'redaction',
        to: {
          id: 'slacker',
          slackChannel: '#general',
          slackToken: { ok: true, access_token: 'xoxb-very-secret' },
        },
        slack: { text: 'hi' },
      }),
    });
    const { trackingId } = (await sent.json()) as { trackingId: string };
    const log = await eventually(async () => {
      const { logs } = (await (await call(`/logs/${trackingId}`)).json()) as {
        logs: Record<string, unknown>[];
      };
      if (logs[0]?.request === undefined) throw new Error('not logged yet');
      return logs[0];
    }, 15_000);
    expect(String(log.request)).not.toContain('xoxb-very-secret');
    expect(String(log.request)).toContain('[redacted]');
    expect(log.ip).toBe('192.0.2.44');
  });

  it('shows each environment only its own mail at /dev/mail, and empties only that', async () => {
    const send = (as: string, subject: string) =>
      call('/send', {
        method: 'POST',
        as,
        body: JSON.stringify({
          type: 'mailbox',
          to: { id: 'm', email: 'm@example.com' },
          email: { subject, html: '<p>x</p>' },
        }),
      });
    expect((await send(key, 'for A')).status).toBe(200);
    expect((await send(otherKey, 'for B')).status).toBe(200);
    const subjects = async (as: string) =>
      ((await (await call('/dev/mail', { as })).json()) as { messages: { subject: string }[] }).messages.map(
        (m) => m.subject,
      );
    await eventually(async () => expect(await subjects(key)).toContain('for A'), 15_000);
    await eventually(async () => expect(await subjects(otherKey)).toEqual(['for B']), 15_000);
    expect(await subjects(key)).not.toContain('for B');
    expect((await call('/dev/mail', { method: 'DELETE', as: otherKey })).status).toBe(200);
    expect(await subjects(otherKey)).toEqual([]);
    expect(await subjects(key)).toContain('for A');
  });

  it('serves SMS, calls and Slack through local peers, each environment seeing only its own at /dev/outbox', async () => {
    const sms = (as: string, message: string) =>
      call('/sms', {
        method: 'POST',
        as,
        body: JSON.stringify({ type: 'outbox', to: '+14155550101', message }),
      });
    const slack = (as: string, text: string) =>
      call('/send', {
        method: 'POST',
        as,
        body: JSON.stringify({
          type: 'outbox',
          to: {
            id: 'chat-user',
            slackChannel: '#general',
            slackToken: { ok: true, access_token: 'xoxb-local' },
          },
          forceChannels: ['SLACK'],
          slack: { text },
        }),
      });
    const first = (await (await sms(key, 'sms for A')).json()) as { trackingId: string };
    expect((await sms(otherKey, 'sms for B')).status).toBe(200);
    expect((await slack(key, 'slack for A')).status).toBe(200);
    expect((await slack(otherKey, 'slack for B')).status).toBe(200);
    const outbox = async (as: string, channel: string, field: string) =>
      (
        (await (await call(`/dev/outbox/${channel}`, { as })).json()) as {
          messages: Record<string, unknown>[];
        }
      ).messages.map((m) => m[field]);
    await eventually(async () => expect(await outbox(key, 'sms', 'body')).toContain('sms for A'), 15_000);
    await eventually(
      async () => expect(await outbox(otherKey, 'sms', 'body')).toEqual(['sms for B']),
      15_000,
    );
    await eventually(async () => expect(await outbox(key, 'slack', 'text')).toContain('slack for A'), 15_000);
    await eventually(
      async () => expect(await outbox(otherKey, 'slack', 'text')).toEqual(['slack for B']),
      15_000,
    );
    expect(await outbox(key, 'sms', 'body')).not.toContain('sms for B');
    expect(await outbox(key, 'slack', 'text')).not.toContain('slack for B');
    // The local Twilio peer posts signed receipts back to the service's own address.
    await eventually(async () => {
      const { logs } = (await (await call(`/logs/${first.trackingId}`)).json()) as {
        logs: Record<string, unknown>[];
      };
      expect(logs[0]).toMatchObject({ sms_sent_from: '+15005550006', sms_delivered_at: expect.any(String) });
    }, 15_000);

    expect((await call('/dev/outbox/sms', { method: 'DELETE', as: otherKey })).status).toBe(200);
    expect(await outbox(otherKey, 'sms', 'body')).toEqual([]);
    expect(await outbox(key, 'sms', 'body')).toContain('sms for A');
    expect((await call('/dev/outbox/fax')).status).toBe(404);
    // Another environment's user (and Slack token) does not exist for this key.
    expect((await call('/users/chat-user/slack-channels', { as: key })).status).toBe(200);
    await call('/users/only-in-b', {
      method: 'POST',
      as: otherKey,
      body: JSON.stringify({ slackToken: { ok: true, access_token: 'xoxb-b-only' } }),
    });
    const leak = await call('/users/only-in-b/slack-channels', { as: key });
    expect(leak.status).toBe(400);
    expect(await errorOf(leak)).toMatchObject({ code: 'SLACK_NOT_CONNECTED' });
  });

  it('rehearses email failures at the local mail peer and gives a newcomer a local inbound mail domain', async () => {
    const email = async (to: string) =>
      (
        (await (
          await call('/send', {
            method: 'POST',
            body: JSON.stringify({
              type: 'rehearsal',
              to: { id: uniqueName('r'), email: to },
              email: { subject: 'Hi', html: '<p>Hi</p>' },
            }),
          })
        ).json()) as { trackingId: string }
      ).trackingId;
    const logOf = (trackingId: string, field: string) =>
      eventually(async () => {
        const { logs } = (await (await call(`/logs/${trackingId}`)).json()) as {
          logs: Record<string, unknown>[];
        };
        expect(logs[0]?.[field]).toBeDefined();
        return logs[0] ?? {};
      }, 20_000);
    const bounced = await email(`${uniqueName('gone')}@bounce.test`);
    const retried = await email(`${uniqueName('slow')}@tempfail.test`);
    expect(await logOf(bounced, 'email_failed_at')).toMatchObject({
      email_failed_code: 'PERMANENT_NO_EMAIL_BOUNCE',
    });
    expect(await logOf(retried, 'email_delivered_at')).not.toHaveProperty('email_failed_at');

    const created = await call('/addresses', { method: 'POST', body: JSON.stringify({ prefix: 'support' }) });
    expect(created.status).toBe(200);
    expect(((await created.json()) as { address: { fullAddress: string } }).address.fullAddress).toBe(
      'support@inbound.notify.localhost',
    );
  });

  it('serves mobile and web push through local peers (web push decrypted), each environment seeing only its own', async () => {
    const subscribe = async (as: string) =>
      (await (await call('/dev/outbox/web_push/subscriptions', { method: 'POST', as })).json()) as {
        endpoint: string;
        keys: { p256dh: string; auth: string };
      };
    const push = async (as: string, title: string) =>
      (
        (await (
          await call('/send', {
            method: 'POST',
            as,
            body: JSON.stringify({
              type: 'local-push',
              to: {
                id: 'phone-owner',
                pushTokens: [
                  { type: 'FCM', token: 'fcm-local', device: { device_id: 'pixel' } },
                  { type: 'APN', token: 'abcdef0123', device: { device_id: 'iphone' } },
                ],
                webPushTokens: [{ sub: await subscribe(as) }],
              },
              forceChannels: ['PUSH', 'WEB_PUSH'],
              mobile_push: { title, message: 'body' },
              web_push: { title, message: 'body', url: 'https://example.com/x' },
            }),
          })
        ).json()) as { trackingId: string }
      ).trackingId;
    const mine = await push(key, 'push for A');
    await push(otherKey, 'push for B');
    const outbox = async (as: string, channel: string) =>
      (
        (await (await call(`/dev/outbox/${channel}`, { as })).json()) as {
          messages: Record<string, unknown>[];
        }
      ).messages;
    const mobile = await eventually(async () => {
      const messages = (await outbox(key, 'mobile_push')).filter((m) => m.trackingId === mine);
      expect(messages).toHaveLength(2);
      return messages;
    }, 15_000);
    expect(mobile.map((m) => m.provider).sort()).toEqual(['APN', 'FCM']);
    expect(mobile.every((m) => m.title === 'push for A')).toBe(true);
    const web = await eventually(async () => {
      const messages = (await outbox(key, 'web_push')).filter((m) => m.trackingId === mine);
      expect(messages).toHaveLength(1);
      return messages;
    }, 15_000);
    expect(web[0]).toMatchObject({ title: 'push for A', body: 'body', url: 'https://example.com/x' });
    await eventually(
      async () => expect((await outbox(otherKey, 'web_push')).map((m) => m.title)).toEqual(['push for B']),
      15_000,
    );
    expect(JSON.stringify(await outbox(key, 'mobile_push'))).not.toContain('push for B');
    expect(JSON.stringify(await outbox(key, 'web_push'))).not.toContain('push for B');
  });

  it("accepts an environment's own FCM service account and APNs key at the local peers, the providers here", async () => {
    const pkcs8 = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) =>
      key.export({ type: 'pkcs8', format: 'pem' }).toString();
    const fcmConfig = JSON.stringify({
      type: 'service_account',
      project_id: 'own-project',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: pkcs8(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey),
      client_email: 'sender@own-project.iam.gserviceaccount.com',
      client_id: '1234567890',
      token_uri: 'https://oauth2.googleapis.com/token',
    });
    const fcm = await call('/settings/push/fcm', {
      method: 'PUT',
      as: otherKey,
      body: JSON.stringify({ fcmConfig }),
    });
    expect(fcm.status).toBe(200);
    const apn = await call('/settings/push/apn', {
      method: 'PUT',
      as: otherKey,
      body: JSON.stringify({
        KeyId: 'OWNKEY0001',
        TeamId: 'OWNTEAM001',
        Key: pkcs8(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey),
        Topic: 'com.example.own',
      }),
    });
    expect(apn.status).toBe(200);
    const sent = await call('/send', {
      method: 'POST',
      as: otherKey,
      body: JSON.stringify({
        type: 'own-push',
        to: {
          id: 'own-phone',
          pushTokens: [
            { type: 'FCM', token: 'fcm-own', device: { device_id: 'pixel' } },
            { type: 'APN', token: 'abcdef0123', device: { device_id: 'iphone' } },
          ],
        },
        forceChannels: ['PUSH'],
        mobile_push: { title: 'with own credentials', message: 'body' },
      }),
    });
    const { trackingId } = (await sent.json()) as { trackingId: string };
    const pushes = await eventually(async () => {
      const { messages } = (await (await call('/dev/outbox/mobile_push', { as: otherKey })).json()) as {
        messages: Record<string, unknown>[];
      };
      const mine = messages.filter((m) => m.trackingId === trackingId);
      expect(mine).toHaveLength(2);
      return mine;
    }, 15_000);
    expect(pushes.map((m) => m.provider).sort()).toEqual(['APN', 'FCM']);
    expect(pushes.every((m) => m.title === 'with own credentials')).toBe(true);
  });

  it('limits failed authentications per client address (429 + Retry-After), also for good keys from it', async () => {
    const from = '203.0.113.77';
    const bad = `notify_sk_${randomBytes(24).toString('base64url')}`;
    await awayFromMinuteBoundary();
    for (let i = 0; i < 5; i++) expect((await call('/users', { as: bad, from })).status).toBe(401);
    const blocked = await call('/users', { as: bad, from });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await errorOf(blocked)).toMatchObject({ code: 'TOO_MANY_FAILED_AUTHENTICATIONS' });
    expect((await call('/users', { from })).status).toBe(429);
    // Other addresses are not affected.
    expect((await call('/users', { from: '203.0.113.78' })).status).toBe(200);
  });

  it('limits the public tracking links per client address (429 + Retry-After; the pixel still answers its image)', async () => {
    const from = '198.51.100.61';
    const link = (path: string, address = from) => call(path, { as: null, from: address });
    await awayFromMinuteBoundary();
    for (let i = 0; i < 5; i++) expect((await link('/t/c/not-a-token')).status).toBe(404);
    const limited = await link('/t/c/not-a-token');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await errorOf(limited)).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await link('/t/u/not-a-token', from)).status).toBe(429);
    const pixel = await link('/t/o/not-a-token');
    expect(pixel.status).toBe(200);
    expect(pixel.headers.get('content-type')).toBe('image/gif');
    // The address is the one the trusted proxy names: another client is not affected.
    expect((await link('/t/c/not-a-token', '198.51.100.62')).status).toBe(404);
  });

  it('sends an SMS autoReply through the local Twilio peer, shown in the environment’s /dev/outbox/sms', async () => {
    const number = '+14155550177';
    const sent = (await (
      await call('/send', {
        method: 'POST',
        body: JSON.stringify({
          type: 'table',
          to: { id: 'diner', number },
          forceChannels: ['SMS'],
          sms: { message: 'Your table is ready', autoReply: { message: 'See you soon!' } },
        }),
      })
    ).json()) as { trackingId: string };
    await eventually(async () => {
      const { logs } = (await (await call(`/logs/${sent.trackingId}`)).json()) as {
        logs: Record<string, unknown>[];
      };
      expect(logs[0]?.sms_sent_at).toEqual(expect.any(String));
    }, 15_000);
    const inbound = await call('/dev/inbound/sms', {
      method: 'POST',
      body: JSON.stringify({ from: number, text: 'On my way' }),
    });
    expect(await inbound.json()).toEqual({ status: 200 });
    await eventually(async () => {
      const { messages } = (await (await call('/dev/outbox/sms')).json()) as {
        messages: { to: string; body: string; trackingId?: string }[];
      };
      expect(messages).toContainEqual(
        expect.objectContaining({ to: number, body: 'See you soon!', trackingId: sent.trackingId }),
      );
    }, 15_000);
  });

  it('limits failed WebSocket logins per client address behind a trusted proxy, not per proxy', async () => {
    const hash = createHmac('sha256', secret).update('ann').digest('base64');
    /** The upgrade's HTTP status (101 when the socket opened), coming "from" a client behind the proxy. */
    const open = (from: string, userIdHash: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL('/ws', base.replace(/^http/, 'ws'));
        url.search = new URLSearchParams({ envId, userId: 'ann', userIdHash }).toString();
        const socket = new WebSocket(url, { headers: { 'x-forwarded-for': from } });
        socket.once('open', () => {
          socket.close();
          resolve(101);
        });
        socket.once('unexpected-response', (request, response) => {
          request.destroy();
          resolve(response.statusCode ?? 0);
        });
        socket.once('error', reject);
      });
    await awayFromMinuteBoundary();
    for (let i = 0; i < 5; i++) expect(await open('198.51.100.66', 'bm90IGl0')).toBe(401);
    expect(await open('198.51.100.66', 'bm90IGl0')).toBe(429);
    expect(await open('198.51.100.66', hash)).toBe(429);
    // Another client behind the same proxy still signs in, and so does the REST API.
    expect(await open('198.51.100.67', hash)).toBe(101);
    expect((await call('/users')).status).toBe(200);
  });

  it('prints no API key on later starts', async () => {
    await service.stop();
    service = await startService('all-in-one', { ...env(), TRUST_PROXY: '1' });
    base = service.baseUrl;
    expect(service.output()).toContain('Notify is running');
    expect(service.output()).not.toContain(key);
    expect((await call('/users')).status).toBe(200);
  }, 120_000);
});
