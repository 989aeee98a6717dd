import { newApiKey } from '@notify/gateway-auth';
import { aMemberToken, eventually, uniqueName } from '@notify/testing';
import notificationapi, { Channels } from 'notificationapi-node-server-sdk';
import { createHmac } from 'node:crypto';
import { type AllInOne, startAllInOne } from './all-in-one';

type Json = Record<string, unknown>;
type ErrorBody = { error: { code: string; message: string } };

/**
 * The older server SDK (`notificationapi-node-server-sdk` 2.x) against the all-in-one service:
 * each of its calls, as the SDK makes them (`/{clientId}/…`, Basic clientId:clientSecret, the end
 * user's Basic clientId:userId:hash where it signs as the user), reaches the same use cases as the
 * current API; credentials of one environment reach nothing of another.
 */
describe('the older server SDK (notificationapi-node-server-sdk)', () => {
  let app: AllInOne;
  let base: string;
  const key = newApiKey();
  let envId: string;
  let secret: string;
  let otherEnvId: string;
  let otherSecret: string;
  /** A person who is a member (not an admin) of the account. */
  const memberEmail = 'mia@example.test';

  const call = (path: string, init: RequestInit & { auth?: string | null } = {}) => {
    const { auth, ...rest } = init;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...(rest.headers as object),
    };
    if (auth !== null) headers.authorization = auth ?? `Bearer ${key}`;
    return fetch(`${base}${path}`, { ...rest, headers });
  };
  const basic = (...parts: string[]) => `Basic ${Buffer.from(parts.join(':')).toString('base64')}`;
  const hash = (userId: string, of = secret) => createHmac('sha256', of).update(userId).digest('base64');
  const asUser = (userId: string) => basic(envId, userId, hash(userId));
  const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;

  const useSdk = (clientId = envId, clientSecret = secret) =>
    notificationapi.init(clientId, clientSecret, { baseURL: base });

  /** The status and error body an SDK call failed with. */
  const failure = async (call: Promise<unknown>) => {
    const error: unknown = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    // The SDK rethrows its HTTP client's error, which carries the answer.
    const response = (error as { response?: { status: number; data: unknown } } | undefined)?.response;
    if (response === undefined) throw new Error(`expected an HTTP error, got ${String(error)}`);
    return { status: response.status, error: (response.data as ErrorBody).error };
  };

  const feedItems = async (userId: string) => {
    const response = await call(`/${envId}/users/${userId}/notifications/INAPP_WEB`, {
      auth: asUser(userId),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { notifications: { id: string; title: string; opened?: string }[] })
      .notifications;
  };
  const feed = async (userId: string) => (await feedItems(userId)).map((item) => item.id);
  const preferencesOf = async (userId: string) => {
    const response = await call(`/${envId}/users/${userId}/preferences`, { auth: asUser(userId) });
    expect(response.status).toBe(200);
    return (await response.json()) as {
      preferences: Json[];
      subNotifications: { notificationId: string; subNotificationId: string; title: string }[];
    };
  };
  const logOf = (trackingId: string, ready: (log: Json) => boolean) =>
    eventually(async () => {
      const response = await call(`/logs/${trackingId}`);
      const log = response.ok ? ((await response.json()) as { logs: Json[] }).logs[0] : undefined;
      if (log === undefined || !ready(log)) throw new Error(`log of ${trackingId} not ready`);
      return log;
    }, 20_000);

  beforeAll(async () => {
    // The installation is provisioned before the first start, with a known key and a person who
    // is a plain member of the account (no API creates one yet).
    app = await startAllInOne('notify-legacy-sdk-', {
      provisionWithKey: key,
      tenants: [{ accountId: 'default', create: false, members: [{ email: memberEmail, role: 'member' }] }],
      now: new Date().toISOString(),
    });
    base = app.baseUrl;
    const [environment] = (await (await call('/environments')).json()) as Json[];
    envId = String(environment?.clientId);
    secret = String(environment?.clientSecret);
    const created = (await (
      await call('/environments', { method: 'POST', body: JSON.stringify({ title: 'second' }) })
    ).json()) as { apiKey: string };
    const [other] = (await (
      await call('/environments', { auth: `Bearer ${created.apiKey}` })
    ).json()) as Json[];
    otherEnvId = String(other?.clientId);
    otherSecret = String(other?.clientSecret);
    // The SDK reports every failed call with console.error before throwing it.
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  }, 120_000);

  beforeEach(() => useSdk());

  afterAll(async () => {
    jest.restoreAllMocks();
    await app?.stop();
  }, 60_000);

  it('sends an email and an in-app notification, both delivered', async () => {
    const userId = uniqueName('ann');
    const email = await notificationapi.send({
      type: 'legacy_welcome',
      to: { id: userId, email: `${userId}@example.test` },
      email: { subject: 'Welcome through the older SDK', html: '<p>hi</p>' },
    });
    expect(email.status).toBe(200);
    const { trackingId } = email.data as { trackingId: string };
    const mail = await eventually(async () => {
      const outbox = (await (await call('/dev/outbox/email')).json()) as { messages: Json[] };
      const found = outbox.messages.find((m) => m.trackingId === trackingId);
      if (found === undefined) throw new Error('not in the outbox yet');
      return found;
    }, 20_000);
    expect(mail).toMatchObject({ subject: 'Welcome through the older SDK' });
    expect(await logOf(trackingId, (l) => l.email_sent_at !== undefined)).toMatchObject({
      type: 'legacy_welcome',
      user_id: userId,
      agent: 'notificationapi-node-server-sdk/2.8.0',
    });

    // The deprecated field names of the 2.x SDK are still read: notificationId, user, mergeTags.
    const inapp = await notificationapi.send({
      notificationId: 'legacy_inapp',
      user: { id: userId },
      mergeTags: { name: 'Ann' },
      forceChannels: [Channels.INAPP_WEB],
      inapp: { title: 'Hello {{name}}' },
    });
    const inappId = (inapp.data as { trackingId: string }).trackingId;
    const item = await eventually(async () => {
      const found = (await feedItems(userId)).find((i) => i.id === inappId);
      if (found === undefined) throw new Error('not in the feed yet');
      return found;
    }, 20_000);
    expect(item.title).toBe('Hello Ann');
  });

  it('identifies a user, signed as that user', async () => {
    const userId = uniqueName('bo');
    const answer = await notificationapi.identifyUser({ id: userId, email: `${userId}@example.test` });
    expect(answer.status).toBe(200);
    const stored = (await (await call(`/users/${userId}`)).json()) as Json;
    expect(stored).toMatchObject({ id: userId, email: `${userId}@example.test` });
  });

  it('sets preferences from the server and deletes them as the user, per type or sub-notification', async () => {
    const userId = uniqueName('cy');
    const set = await notificationapi.setUserPreferences(userId, [
      { notificationId: 'legacy_digest', channel: 'EMAIL', delivery: 'daily' },
      { notificationId: 'legacy_digest', subNotificationId: 'p1', channel: 'EMAIL', delivery: 'off' },
      { notificationId: 'legacy_other', channel: 'SMS', delivery: 'off' },
    ]);
    expect(set.status).toBe(200);
    expect((await preferencesOf(userId)).preferences).toHaveLength(3);

    const sub = await notificationapi.deleteUserPreferences(userId, 'legacy_digest', 'p1');
    expect(sub.data).toEqual({ removed: 1 });
    expect((await preferencesOf(userId)).preferences).toEqual([
      { notificationId: 'legacy_digest', channel: 'EMAIL', delivery: 'daily' },
      { notificationId: 'legacy_other', channel: 'SMS', delivery: 'off' },
    ]);
    await notificationapi.deleteUserPreferences(userId, 'legacy_digest');
    expect((await preferencesOf(userId)).preferences).toEqual([
      { notificationId: 'legacy_other', channel: 'SMS', delivery: 'off' },
    ]);

    // The same validation as the browser client's writes: 400 with the error body.
    const refused = await failure(
      notificationapi.setUserPreferences(userId, [
        { notificationId: 'legacy_digest', channel: 'INAPP_WEB', delivery: 'daily' },
      ]),
    );
    expect(refused).toMatchObject({ status: 400, error: { code: 'VALIDATION_ERROR' } });
    // Deleting another user's preferences needs that user's hash.
    const stranger = await call(`/${envId}/users/${userId}/preferences?notificationId=legacy_other`, {
      method: 'DELETE',
      auth: basic(envId, userId, hash('someone-else')),
    });
    expect(stranger.status).toBe(401);
    expect((await preferencesOf(userId)).preferences).toHaveLength(1);
  });

  it("creates and deletes sub-notifications, listed with the browser client's preferences", async () => {
    const type = uniqueName('legacy_comments');
    expect(
      (
        await call('/types', {
          method: 'POST',
          body: JSON.stringify({ notificationId: type, title: 'Comments', channels: ['EMAIL'] }),
        })
      ).status,
    ).toBeLessThan(300);
    await notificationapi.createSubNotification({
      notificationId: type,
      subNotificationId: 'p1',
      title: 'Project 1',
    });
    await notificationapi.createSubNotification({
      notificationId: type,
      subNotificationId: 'p2',
      title: 'Project 2',
    });
    const listed = (await preferencesOf('dee')).subNotifications.filter((s) => s.notificationId === type);
    expect(listed).toEqual([
      { notificationId: type, subNotificationId: 'p1', title: 'Project 1' },
      { notificationId: type, subNotificationId: 'p2', title: 'Project 2' },
    ]);

    await notificationapi.deleteSubNotification({ notificationId: type, subNotificationId: 'p1' });
    expect((await preferencesOf('dee')).subNotifications.filter((s) => s.notificationId === type)).toEqual([
      { notificationId: type, subNotificationId: 'p2', title: 'Project 2' },
    ]);
    expect(
      await failure(notificationapi.deleteSubNotification({ notificationId: type, subNotificationId: 'p1' })),
    ).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
    expect(
      await failure(
        notificationapi.createSubNotification({
          notificationId: uniqueName('nope'),
          subNotificationId: 'p',
          title: 'P',
        }),
      ),
    ).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
  });

  it("retracts a type's in-app notifications from the user's feed, or one sub-notification's", async () => {
    const userId = uniqueName('eve');
    const send = async (secondaryId?: string) => {
      const answer = await notificationapi.send({
        type: 'legacy_alert',
        to: { id: userId },
        forceChannels: [Channels.INAPP_WEB],
        inapp: { title: 'Alert' },
        ...(secondaryId !== undefined ? { secondaryId } : {}),
      });
      return (answer.data as { trackingId: string }).trackingId;
    };
    const plain = await send();
    const threaded = await send('thread-2');
    const elsewhere = (
      (
        await notificationapi.send({
          type: 'legacy_other',
          to: { id: userId },
          forceChannels: [Channels.INAPP_WEB],
          inapp: { title: 'Other' },
        })
      ).data as { trackingId: string }
    ).trackingId;
    await eventually(
      async () => expect((await feed(userId)).sort()).toEqual([plain, threaded, elsewhere].sort()),
      20_000,
    );

    const one = await notificationapi.retract({
      notificationId: 'legacy_alert',
      userId,
      secondaryId: 'thread-2',
    });
    expect(one.data).toEqual({ retracted: 1 });
    expect((await feed(userId)).sort()).toEqual([plain, elsewhere].sort());
    const rest = await notificationapi.retract({ notificationId: 'legacy_alert', userId });
    expect(rest.data).toEqual({ retracted: 1 });
    expect(await feed(userId)).toEqual([elsewhere]);
    // What is left is marked as the SDK marks it, signed as the user.
    const opened = new Date().toISOString();
    await notificationapi.updateInAppNotification(userId, { trackingIds: [elsewhere], opened });
    expect((await feedItems(userId))[0]?.opened).toBe(opened);
  });

  it('starts a log query that finds the sends, polled on GET /logs/query/{queryId}', async () => {
    const userId = uniqueName('fin');
    const sent = await notificationapi.send({
      type: 'legacy_logged',
      to: { id: userId, email: `${userId}@example.test` },
      email: { subject: 'Logged', html: '<p>x</p>' },
    });
    const { trackingId } = sent.data as { trackingId: string };
    await logOf(trackingId, (l) => l.email_sent_at !== undefined);
    const now = Math.floor(Date.now() / 1000);
    const query = await notificationapi.queryLogs({
      dateRangeFilter: { startTime: now - 600, endTime: now + 60 },
      userFilter: [userId],
    });
    const { queryId } = query.data as { queryId: string };
    const result = await eventually(async () => {
      const answer = (await (await call(`/logs/query/${queryId}`)).json()) as {
        status: string;
        logs: Json[];
      };
      if (answer.status !== 'complete') throw new Error(answer.status);
      return answer;
    }, 20_000);
    expect(result.logs.map((l) => l.trackingId)).toEqual([trackingId]);
    expect(await failure(notificationapi.queryLogs({ trackingIds: [trackingId] }))).toMatchObject({
      status: 400,
      error: { code: 'UNSUPPORTED_LOG_FILTER' },
    });
  });

  it('updates and deletes a scheduled send', async () => {
    const userId = uniqueName('gil');
    const body = {
      type: 'legacy_later',
      to: { id: userId, email: `${userId}@example.test` },
      email: { subject: 'Later', html: '<p>later</p>' },
    };
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const sent = await notificationapi.send({ ...body, schedule: inAnHour });
    const { trackingId } = sent.data as { trackingId: string };

    const inTwoHours = new Date(Date.now() + 7_200_000).toISOString();
    const updated = await notificationapi.updateSchedule(trackingId, { ...body, schedule: inTwoHours });
    expect(updated.data).toEqual({ message: 'The scheduled notification was updated.' });
    expect(await logOf(trackingId, (l) => l.schedule_updated_at !== undefined)).toMatchObject({
      schedule_updated_to: inTwoHours,
    });

    const deleted = await notificationapi.deleteSchedule(trackingId);
    expect(deleted.data).toEqual({ message: 'The scheduled notification was deleted.' });
    await logOf(trackingId, (l) => l.schedule_deleted_at !== undefined);
    expect(await failure(notificationapi.deleteSchedule(trackingId))).toMatchObject({
      status: 404,
      error: { code: 'SCHEDULE_RESOURCE_NOT_FOUND' },
    });
  });

  it("refuses another environment's client id with this secret (401), and a wrong secret (401)", async () => {
    useSdk(otherEnvId, secret);
    expect(await failure(notificationapi.send({ type: 't', to: { id: 'x' } }))).toMatchObject({
      status: 401,
      error: { code: 'UNAUTHORIZED' },
    });
    useSdk(envId, 'not-the-secret');
    expect(await failure(notificationapi.send({ type: 't', to: { id: 'x' } }))).toMatchObject({
      status: 401,
      error: { code: 'UNAUTHORIZED' },
    });
    // The other environment's own credentials work, in its own paths.
    useSdk(otherEnvId, otherSecret);
    expect((await notificationapi.send({ type: 't', to: { id: 'x', email: 'x@example.test' } })).status).toBe(
      200,
    );
  });

  it("answers 404 with the error body on every route of another environment's path, and changes nothing", async () => {
    const auth = basic(envId, secret);
    const routes: [string, string, unknown?][] = [
      ['POST', 'sender', { type: 't', to: { id: 'x' } }],
      ['POST', 'sender/retract', { notificationId: 't', userId: 'x' }],
      ['POST', 'logs/query', {}],
      ['PUT', 'notifications/t/subNotifications/s', { title: 'S' }],
      ['DELETE', 'notifications/t/subNotifications/s'],
      ['POST', 'user_preferences/x', [{ notificationId: 't', channel: 'EMAIL', delivery: 'off' }]],
      ['PATCH', 'schedule/trk', { type: 't', to: { id: 'x' } }],
      ['DELETE', 'schedule/trk'],
    ];
    for (const [method, path, body] of routes) {
      const response = await call(`/${otherEnvId}/${path}`, {
        method,
        auth,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      expect({ route: `${method} ${path}`, status: response.status }).toEqual({
        route: `${method} ${path}`,
        status: 404,
      });
      expect(await errorOf(response)).toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringContaining(otherEnvId),
      });
    }
    const otherUser = basic(otherEnvId, 'x', hash('x', otherSecret));
    const written = await call(`/${otherEnvId}/users/x/preferences`, { auth: otherUser });
    expect(((await written.json()) as { preferences: Json[] }).preferences).toEqual([]);
    // The end user's route: a user of this environment cannot sign for the other one's path.
    const response = await call(`/${otherEnvId}/users/x/preferences?notificationId=t`, {
      method: 'DELETE',
      auth: basic(envId, 'x', hash('x')),
    });
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('takes a member JWT naming the environment (query or path); a member without the admin role gets 403 on sub-notifications', async () => {
    const auth = `Bearer ${aMemberToken({ email: memberEmail })}`;
    const type = uniqueName('legacy_member');
    const sent = await call(`/${envId}/sender?envId=${envId}`, {
      method: 'POST',
      auth,
      body: JSON.stringify({ type, to: { id: 'x', email: 'x@example.test' } }),
    });
    expect(sent.status).toBe(200);
    const refused = await call(`/${envId}/notifications/${type}/subNotifications/s?envId=${envId}`, {
      method: 'PUT',
      auth,
      body: JSON.stringify({ title: 'S' }),
    });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({ code: 'FORBIDDEN' });
    const deleting = await call(`/${envId}/notifications/${type}/subNotifications/s?envId=${envId}`, {
      method: 'DELETE',
      auth,
    });
    expect(deleting.status).toBe(403);
    expect(await errorOf(deleting)).toMatchObject({ code: 'FORBIDDEN' });
    // Without ?envId= the path's client id names the environment.
    const byPath = await call(`/${envId}/sender`, {
      method: 'POST',
      auth,
      body: JSON.stringify({ type, to: { id: 'x', email: 'x@example.test' } }),
    });
    expect(byPath.status).toBe(200);
    expect(await byPath.json()).toMatchObject({ trackingId: expect.any(String) });
  });

  it('leaves the current routes that share a shape with the older paths where they were', async () => {
    // Same method and depth as DELETE /{clientId}/schedule/{trackingId}: the static segments win.
    const scheduler = await call('/sender/scheduler/unknown', { method: 'DELETE' });
    expect(await errorOf(scheduler)).toMatchObject({ code: 'SCHEDULE_RESOURCE_NOT_FOUND' });
    const outbox = await call('/dev/outbox/sms', { method: 'DELETE' });
    expect(outbox.status).toBe(200);
    // Same method and depth as DELETE /{clientId}/notifications/{id}/subNotifications/{id}.
    const template = await call('/notifications/unknown/EMAIL/templates/unknown', { method: 'DELETE' });
    expect(template.status).toBe(404);
    expect((await errorOf(template)).message).not.toContain('environment');
    // POST /logs/query keeps its own body (a [start, end] pair), which the older path refuses.
    const range = JSON.stringify({ dateRangeFilter: [0, Math.floor(Date.now() / 1000)] });
    expect((await call('/logs/query', { method: 'POST', body: range })).status).toBe(200);
    expect((await call(`/${envId}/logs/query`, { method: 'POST', body: range })).status).toBe(400);
    // The browser client's preference routes beside the older SDK's DELETE on the same path.
    expect((await preferencesOf('hal')).preferences).toEqual([]);
    const removed = await call(`/${envId}/users/hal/preferences?notificationId=t`, {
      method: 'DELETE',
      auth: asUser('hal'),
    });
    expect(await removed.json()).toEqual({ removed: 0 });
    // POST /users/{userId} (server identify) and POST /{clientId}/users/{userId} (the user's own).
    expect(
      (await call('/users/hal', { method: 'POST', body: JSON.stringify({ email: 'hal@example.test' }) }))
        .status,
    ).toBe(200);
    const own = await call(`/${envId}/users/hal`, {
      method: 'POST',
      auth: asUser('hal'),
      body: JSON.stringify({ email: 'hal@example.test' }),
    });
    expect(own.status).toBe(200);
  });
});
