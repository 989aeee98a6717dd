import { newApiKey } from '@notify/gateway-auth';
import { aMemberToken, eventually, type ReceivedWebhook, uniqueName, WebhookReceiver } from '@notify/testing';
import { type AllInOne, callAs, pingramIn, startAllInOne, statusAndCode } from './all-in-one';
import { verifiedPayload } from './webhook-signatures';

const OTHER_OWNER = 'boss@other.example';
const MEMBER = 'mia@example.com';

interface Delivery {
  msgId: string;
  eventType: string;
  trackingId?: string;
  status: string;
  attempts: { at: string; statusCode?: number; error?: string; body: string; durationMs: number }[];
  nextAttemptAt?: string;
}

/**
 * The console's webhook and user pages through the public API, against the all-in-one service as
 * `npm start` runs it: an endpoint's recent deliveries with their attempts and the receiver's
 * answers, redelivery under the same webhook-id, and a user's preferences set on their behalf
 * (recorded in the account history). A second account stands for another tenant, and a person of
 * the `member` role for a caller without an admin's rights.
 */
describe('webhook deliveries and server-side preferences (all-in-one)', () => {
  let app: AllInOne;
  const key = newApiKey();
  let envId: string;
  const ok = new WebhookReceiver();
  const failing = new WebhookReceiver();
  const endpoints: Record<'ok' | 'failing', { endpointId: string; secret: string }> = {
    ok: { endpointId: '', secret: '' },
    failing: { endpointId: '', secret: '' },
  };

  const owner = () => aMemberToken({ email: 'owner@notify.localhost', sub: 'sub-owner' });
  const member = () => aMemberToken({ email: MEMBER, sub: 'sub-mia' });
  const otherOwner = () => aMemberToken({ email: OTHER_OWNER, sub: 'sub-boss' });
  const call = (path: string, as: string, init: RequestInit = {}) => callAs(app.baseUrl, path, as, init);
  const deliveries = async (endpointId: string): Promise<Delivery[]> => {
    const response = await call(`/webhooks/${endpointId}/deliveries`, key);
    expect(response.status).toBe(200);
    return (await response.json()) as Delivery[];
  };
  const deliveryOf = (endpointId: string, trackingId: string, done: (d: Delivery) => boolean) =>
    eventually(async () => {
      const found = (await deliveries(endpointId)).find((d) => d.trackingId === trackingId);
      if (found === undefined || !done(found)) throw new Error(`no finished delivery of ${trackingId} yet`);
      return found;
    }, 20_000);
  const receivedBy = (receiver: WebhookReceiver, trackingId: string, count: number) =>
    eventually(() => {
      const found = receiver.received.filter((r) => r.body.includes(`"trackingId":"${trackingId}"`));
      if (found.length < count) throw new Error(`${found.length}/${count} deliveries of ${trackingId}`);
      return found;
    }, 20_000);
  const failedSms = async () =>
    (
      await pingramIn(app.baseUrl, key).sms.send({
        type: uniqueName('alerts'),
        to: '+15005550001',
        message: 'x',
      })
    ).trackingId;

  beforeAll(async () => {
    app = await startAllInOne('notify-console-hooks-', {
      tenants: [
        { accountId: 'default', create: false, members: [{ email: MEMBER, role: 'member' }] },
        {
          accountId: 'acct-other',
          environments: [{ envId: 'env-other' }],
          members: [{ email: OTHER_OWNER, role: 'owner' }],
        },
      ],
      provisionWithKey: key,
      // The receivers listen on 127.0.0.1; retries a test can wait for (three attempts in all).
      env: { EGRESS_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '0,300,600' },
    });
    const environments = (await (await call('/environments', key)).json()) as { clientId: string }[];
    envId = environments[0]?.clientId ?? '';
    await ok.start();
    await failing.start();
    ok.reply = 'thanks';
    failing.reply = 'busy';
    failing.answer = () => 503;
    for (const [name, receiver] of [
      ['ok', ok],
      ['failing', failing],
    ] as const) {
      const created = await call('/webhooks', key, {
        method: 'POST',
        body: JSON.stringify({ webhook: receiver.url, events: ['SMS_FAILED'] }),
      });
      expect(created.status).toBe(200);
      endpoints[name] = (await created.json()) as { endpointId: string; secret: string };
    }
  }, 120_000);

  afterAll(async () => {
    await ok.stop();
    await failing.stop();
    await app?.stop();
  }, 60_000);

  it("lists a delivery with the receiver's status and body; a redelivery reaches it again under the same webhook-id", async () => {
    const trackingId = await failedSms();
    const delivered = await deliveryOf(endpoints.ok.endpointId, trackingId, (d) => d.status === 'delivered');
    expect(delivered).toEqual({
      msgId: expect.stringMatching(/^msg_/),
      eventType: 'SMS_FAILED',
      trackingId,
      status: 'delivered',
      attempts: [{ at: expect.any(String), statusCode: 200, body: 'thanks', durationMs: expect.any(Number) }],
    });

    const redelivered = await call(
      `/webhooks/${endpoints.ok.endpointId}/deliveries/${delivered.msgId}/redeliver`,
      key,
      { method: 'POST' },
    );
    expect(redelivered.status).toBe(200);
    const [first, second] = await receivedBy(ok, trackingId, 2);
    expect(second?.headers['webhook-id']).toBe(delivered.msgId);
    expect(first?.headers['webhook-id']).toBe(delivered.msgId);
    expect(second?.body).toBe(first?.body);
    verifiedPayload(second as ReceivedWebhook, endpoints.ok.secret);
    const again = await deliveryOf(endpoints.ok.endpointId, trackingId, (d) => d.attempts.length === 2);
    expect(again.attempts.map((a) => a.statusCode)).toEqual([200, 200]);

    const unknown = await call(`/webhooks/${endpoints.ok.endpointId}/deliveries/msg_unknown/redeliver`, key, {
      method: 'POST',
    });
    expect(await statusAndCode(unknown)).toEqual({ status: 404, code: 'DELIVERY_NOT_FOUND' });
    const tooLong = await call(
      `/webhooks/${endpoints.ok.endpointId}/deliveries/${'m'.repeat(101)}/redeliver`,
      key,
      { method: 'POST' },
    );
    expect((await statusAndCode(tooLong)).status).toBe(400);
  });

  it('shows every attempt to a failing endpoint with its status code, until the schedule ends', async () => {
    const trackingId = await failedSms();
    const failed = await deliveryOf(endpoints.failing.endpointId, trackingId, (d) => d.status === 'failed');
    expect(failed.attempts.map((a) => [a.statusCode, a.body])).toEqual([
      [503, 'busy'],
      [503, 'busy'],
      [503, 'busy'],
    ]);
    expect(failed.nextAttemptAt).toBeUndefined();
    const times = failed.attempts.map((a) => Date.parse(a.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("answers 404 for another tenant's endpoint, and 403 to a member who redelivers", async () => {
    const { endpointId } = endpoints.ok;
    const [delivery] = await deliveries(endpointId);
    const redeliver = `/webhooks/${endpointId}/deliveries/${delivery?.msgId}/redeliver`;
    for (const path of [`/webhooks/${endpointId}/deliveries`, redeliver]) {
      const method = path === redeliver ? 'POST' : 'GET';
      expect(await statusAndCode(await call(`${path}?envId=env-other`, otherOwner(), { method }))).toEqual({
        status: 404,
        code: 'WEBHOOK_NOT_FOUND',
      });
      expect((await call(`${path}?envId=${envId}`, otherOwner(), { method })).status).toBe(404);
    }

    const read = await call(`/webhooks/${endpointId}/deliveries?envId=${envId}`, member());
    expect(read.status).toBe(200);
    const refused = await call(`${redeliver}?envId=${envId}`, member(), { method: 'POST' });
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(refused.status).toBe(403);
    expect(body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('admin') });
  });

  it("sets a user's preferences on their behalf, and the account history names who did it", async () => {
    const userId = uniqueName('ann');
    const choices = [
      { notificationId: 'news', channel: 'EMAIL', delivery: 'off' },
      { notificationId: 'news', channel: 'SMS', delivery: 'daily' },
    ];
    const set = await call(`/users/${userId}/preferences`, key, {
      method: 'POST',
      body: JSON.stringify(choices),
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ preferences: choices });

    const shown = await call(`/users/${userId}/preferences`, key);
    expect(await shown.json()).toMatchObject({ preferences: choices, notifications: expect.any(Array) });

    const byMember = await call(`/users/${userId}/preferences?envId=${envId}`, member(), {
      method: 'POST',
      body: JSON.stringify([{ notificationId: 'news', channel: 'EMAIL', delivery: 'instant' }]),
    });
    expect(byMember.status).toBe(200);

    const read = await call('/account/history', owner());
    expect(read.status).toBe(200);
    const history = (await read.json()) as {
      events: { type: string; actor: string; details: Record<string, string> }[];
    };
    const changes = history.events.filter(
      (e) => e.type === 'preferences.changed' && e.details['userId'] === userId,
    );
    expect(changes).toEqual([
      {
        at: expect.any(String),
        type: 'preferences.changed',
        actor: `member:${app.userIds.get(MEMBER)}`,
        details: { envId, userId, changes: 'news EMAIL instant' },
      },
      {
        at: expect.any(String),
        type: 'preferences.changed',
        actor: expect.stringMatching(/^key:/),
        details: { envId, userId, changes: 'news EMAIL off; news SMS daily' },
      },
    ]);

    // Another tenant reaches neither; a body that is not a preference list is the spec's 400.
    const elsewhere = await call(`/users/${userId}/preferences?envId=${envId}`, otherOwner());
    expect(elsewhere.status).toBe(404);
    const invalid = await call(`/users/${userId}/preferences`, key, {
      method: 'POST',
      body: JSON.stringify([{ notificationId: 'news', channel: 'FAX', delivery: 'off' }]),
    });
    expect((await statusAndCode(invalid)).status).toBe(400);
    // Nothing of the refused body was stored.
    const after = (await (await call(`/users/${userId}/preferences`, key)).json()) as {
      preferences: unknown[];
    };
    expect(after.preferences).toHaveLength(2);
    expect(after.preferences).toEqual(
      expect.arrayContaining([
        { notificationId: 'news', channel: 'EMAIL', delivery: 'instant' },
        { notificationId: 'news', channel: 'SMS', delivery: 'daily' },
      ]),
    );
  });
});
