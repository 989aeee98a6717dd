import { eventually, uniqueName } from '@notify/testing';
import { createHmac } from 'node:crypto';
import { Pingram } from 'pingram';
import WebSocket from 'ws';
import type { ChannelsContext } from './channels.suite';

interface Item {
  id: string;
  notificationId: string;
  title: string;
  seen: boolean;
  redirectURL?: string;
  parameters?: Record<string, unknown>;
  opened?: string;
  archived?: string;
  date: string;
  expDate: number;
}

/** A browser-like connection to `/ws`: every frame it received, in order. */
export interface InboxSocket {
  readonly frames: { route: string; payload: { notifications: Item[] } }[];
  close(): void;
}

/** Opens `/ws` as the browser library does; rejects with the HTTP status of a refused upgrade. */
export function openInboxSocket(
  baseUrl: string,
  query: { envId: string; userId: string; userIdHash?: string },
): Promise<InboxSocket> {
  const url = new URL('/ws', baseUrl.replace(/^http/, 'ws'));
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value);
  const socket = new WebSocket(url);
  const frames: InboxSocket['frames'] = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data)) as InboxSocket['frames'][number]));
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ frames, close: () => socket.close() }));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused: ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

export const framesOf = (socket: InboxSocket, trackingId: string) =>
  eventually(() => {
    const items = socket.frames.flatMap((f) => f.payload.notifications).filter((i) => i.id === trackingId);
    if (items.length === 0) throw new Error(`no frame for ${trackingId} yet`);
    return items;
  }, 20_000);

/**
 * The in-app inbox: live delivery over the WebSocket, the browser client's REST
 * routes (as the published library calls them: JSON in text/plain bodies, a trailing slash on
 * identify), the pingram UserApi's `/user/inapp` routes, preferences, and what a wrong hash or
 * another environment's credentials get.
 */
export function inappSuite(context: () => ChannelsContext): void {
  describe('in-app inbox', () => {
    let envId: string;
    let secret: string;
    const hash = (userId: string, key = secret) => createHmac('sha256', key).update(userId).digest('base64');
    const basic = (userId: string, clientId = envId, hashed = hash(userId)) =>
      `Basic ${Buffer.from(`${clientId}:${userId}:${hashed}`).toString('base64')}`;
    /** A call as @notificationapi/core makes it: no content type header, so fetch sends text/plain. */
    const browser = (
      userId: string,
      path: string,
      init: { method?: string; body?: unknown; auth?: string } = {},
    ) =>
      fetch(`${context().topology.baseUrl}/${envId}/users/${encodeURIComponent(userId)}/${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: init.auth ?? basic(userId) },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
    /** The pingram UserApi with the end user's Basic credentials. */
    const userApi = (userId: string) =>
      new Pingram({
        apiKey: 'unused',
        baseUrl: context().topology.baseUrl,
        headers: { Authorization: basic(userId) },
      }).user;
    const sendInApp = (userId: string, title: string, type = 'inbox') =>
      context().client.send({
        type,
        to: { id: userId },
        inapp: { title, url: 'https://example.com/{{page}}' },
        parameters: { page: 'orders' },
      });

    beforeAll(async () => {
      const [environment] = await context().client.environments.listEnvironments();
      envId = environment?.clientId ?? '';
      secret = environment?.clientSecret ?? '';
    });

    it('pushes a new notification to the open WebSocket at once, logs it sent and delivered, and serves the feed', async () => {
      const userId = uniqueName('inbox');
      const socket = await openInboxSocket(context().topology.baseUrl, {
        envId,
        userId,
        userIdHash: hash(userId),
      });
      try {
        const { trackingId } = await sendInApp(userId, 'Your order shipped');
        const [item] = await framesOf(socket, trackingId);
        expect(socket.frames[0]?.route).toBe('inapp_web/new_notifications');
        expect(item).toMatchObject({
          id: trackingId,
          notificationId: 'inbox',
          seen: false,
          title: 'Your order shipped',
          redirectURL: 'https://example.com/orders',
          parameters: { page: 'orders' },
        });
        const log = await context().logOf(trackingId, (l) => l.inapp_delivered_at !== undefined);
        expect(log).toMatchObject({ inapp_routing: 'SEND', inapp_sent_at: expect.any(String) });

        const feed = await browser(
          userId,
          `notifications/INAPP_WEB?count=10&before=${new Date(Date.now() + 1_000).toISOString()}`,
        );
        expect(feed.status).toBe(200);
        expect(((await feed.json()) as { notifications: Item[] }).notifications).toEqual([item]);
        expect(await userApi(userId).getInAppUnreadCount()).toEqual({ count: 1 });

        const opened = new Date().toISOString();
        const patch = await browser(userId, 'notifications/INAPP_WEB', {
          method: 'PATCH',
          body: { trackingIds: [trackingId], opened },
        });
        expect(patch.status).toBe(200);
        expect(await userApi(userId).getInAppUnreadCount()).toEqual({ count: 0 });
        await userApi(userId).updateInAppNotificationStatus({ trackingIds: [trackingId], archived: opened });
        const { notifications } = await userApi(userId).getInAppNotifications(undefined, 5);
        expect(notifications[0]).toMatchObject({ id: trackingId, seen: true, opened, archived: opened });
        // pingram types expDate as a string (ISO 8601 here); the browser library as Unix seconds.
        expect(notifications[0]?.expDate).toBe(new Date((item?.expDate ?? 0) * 1_000).toISOString());
        expect(typeof item?.expDate).toBe('number');

        // updateInAppNotifications({archived: false}) of the browser library sends `archived: null`.
        const unarchive = await browser(userId, 'notifications/INAPP_WEB', {
          method: 'PATCH',
          body: { trackingIds: [trackingId], archived: null },
        });
        expect(unarchive.status).toBe(200);
        const unopen = await fetch(`${context().topology.baseUrl}/user/inapp`, {
          method: 'PATCH',
          headers: { authorization: basic(userId), 'content-type': 'application/json' },
          body: JSON.stringify({ trackingIds: [trackingId], opened: false }),
        });
        expect(unopen.status).toBe(200);
        const [cleared] = (await userApi(userId).getInAppNotifications(undefined, 5)).notifications;
        expect(cleared).toMatchObject({ id: trackingId, seen: false });
        expect(cleared?.archived).toBeUndefined();
        expect(cleared?.opened).toBeUndefined();
        expect(await userApi(userId).getInAppUnreadCount()).toEqual({ count: 1 });
      } finally {
        socket.close();
      }
    });

    it('counts a first fetch as delivery when no socket was open, and marks unread read through /user/inapp/unread', async () => {
      const userId = uniqueName('offline');
      const sent = await Promise.all(['one', 'two', 'three'].map((title) => sendInApp(userId, title)));
      const first = sent[0]?.trackingId ?? '';
      const log = await context().logOf(first, (l) => l.inapp_sent_at !== undefined);
      expect(log.inapp_delivered_at).toBeUndefined();
      await eventually(async () => {
        expect(await userApi(userId).getInAppUnreadCount()).toEqual({ count: 3 });
      }, 20_000);
      const page = await userApi(userId).getInAppNotifications(undefined, 2);
      expect(page.notifications).toHaveLength(2);
      const rest = await userApi(userId).getInAppNotifications(page.notifications[1]?.date, 10);
      expect(rest.notifications).toHaveLength(1);
      expect(new Set([...page.notifications, ...rest.notifications].map((n) => n.id))).toEqual(
        new Set(sent.map((s) => s.trackingId)),
      );
      await context().logOf(first, (l) => l.inapp_delivered_at !== undefined);

      expect(await userApi(userId).markInAppNotificationsAsSeen({ trackingId: first })).toEqual({
        success: true,
      });
      expect(await userApi(userId).getInAppUnreadCount()).toEqual({ count: 2 });
      await userApi(userId).markInAppNotificationsAsSeen({});
      expect(await userApi(userId).getInAppUnreadCount()).toEqual({ count: 0 });
    });

    it('answers CORS preflights on the browser routes only', async () => {
      const { baseUrl } = context().topology;
      const preflight = (path: string) =>
        fetch(`${baseUrl}${path}`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://shop.example',
            'access-control-request-method': 'PATCH',
            'access-control-request-headers': 'authorization,content-type',
          },
        });
      for (const path of [
        `/${envId}/users/u1/notifications/INAPP_WEB`,
        `/${envId}/users/u1/`,
        '/user/inapp/unread',
      ]) {
        const answer = await preflight(path);
        expect(answer.status).toBe(204);
        expect(answer.headers.get('access-control-allow-origin')).toBe('*');
        expect(answer.headers.get('access-control-allow-headers')).toContain('authorization');
      }
      const feed = await browser('u1', 'notifications/INAPP_WEB');
      expect(feed.headers.get('access-control-allow-origin')).toBe('*');
      const server = await fetch(`${baseUrl}/users`, {
        headers: { authorization: `Bearer ${context().topology.apiKey}` },
      });
      expect(server.status).toBe(200);
      expect(server.headers.get('access-control-allow-origin')).toBeNull();
      expect((await preflight('/send')).headers.get('access-control-allow-origin')).toBeNull();
    });

    it('identifies and reads the user, gives account metadata, and turns a channel off by preference', async () => {
      const userId = uniqueName('prefs');
      const identified = await browser(userId, '', {
        method: 'POST',
        body: { email: `${userId}@example.com` },
      });
      expect(identified.status).toBe(200);
      expect(await (await browser(userId, '')).json()).toMatchObject({
        id: userId,
        email: `${userId}@example.com`,
      });
      const metadata = (await (await browser(userId, 'account_metadata')).json()) as {
        userAccountMetadata: { environmentVapidPublicKey: string; hasWebPushEnabled: boolean };
      };
      expect(metadata.userAccountMetadata.environmentVapidPublicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
      expect(metadata.userAccountMetadata.hasWebPushEnabled).toBe(true);

      const type = uniqueName('digest');
      const before = await sendInApp(userId, 'before', type);
      await context().logOf(before.trackingId, (l) => l.inapp_sent_at !== undefined);
      const off = await browser(userId, 'preferences', {
        method: 'POST',
        body: [{ notificationId: type, channel: 'INAPP_WEB', delivery: 'off' }],
      });
      expect(off.status).toBe(200);
      const digest = await browser(userId, 'preferences', {
        method: 'POST',
        body: [{ notificationId: type, channel: 'INAPP_WEB', delivery: 'daily' }],
      });
      expect(digest.status).toBe(400);
      expect(await digest.json()).toMatchObject({
        trackingId: expect.any(String),
        error: {
          code: 'VALIDATION_ERROR',
          message: expect.stringContaining('INAPP_WEB takes only off or instant'),
        },
      });
      const prefs = (await (await browser(userId, 'preferences')).json()) as {
        preferences: unknown[];
        notifications: { notificationId: string; channels: string[] }[];
      };
      expect(prefs.preferences).toEqual([{ notificationId: type, channel: 'INAPP_WEB', delivery: 'off' }]);
      expect(prefs.notifications.find((n) => n.notificationId === type)?.channels).toContain('INAPP_WEB');

      const after = await sendInApp(userId, 'after', type);
      const log = await context().logOf(after.trackingId, (l) => l.inapp_routing !== undefined);
      expect(log).toMatchObject({ inapp_routing: 'IGNORE', inapp_routing_reason: 'IGNORE_BY_PREFERENCES' });
      expect(log.inapp_sent_at).toBeUndefined();
    });

    it('refuses a wrong hash on REST and on the WebSocket, and shows nothing across environments', async () => {
      const userId = uniqueName('guarded');
      const { trackingId } = await sendInApp(userId, 'private');
      await context().logOf(trackingId, (l) => l.inapp_sent_at !== undefined);

      const wrong = basic(userId, envId, hash(userId, 'not the secret'));
      expect((await browser(userId, 'notifications/INAPP_WEB', { auth: wrong })).status).toBe(401);
      expect((await browser(userId, 'preferences', { auth: wrong })).status).toBe(401);
      const unhashed = `Basic ${Buffer.from(`${envId}:${userId}`).toString('base64')}`;
      expect((await browser(userId, '', { auth: unhashed })).status).toBe(401);
      await expect(
        openInboxSocket(context().topology.baseUrl, { envId, userId, userIdHash: hash(userId, 'nope') }),
      ).rejects.toThrow('upgrade refused: 401');
      await expect(openInboxSocket(context().topology.baseUrl, { envId, userId })).rejects.toThrow(
        'upgrade refused: 401',
      );

      // The same user id in another environment of the account is another user with an empty inbox.
      const other = await context().client.environments.createEnvironment({ title: uniqueName('other') });
      const otherAuth = basic(userId, other.clientId, hash(userId, other.clientSecret));
      const theirs = await fetch(
        `${context().topology.baseUrl}/${other.clientId}/users/${userId}/notifications/INAPP_WEB`,
        { headers: { authorization: otherAuth } },
      );
      expect(theirs.status).toBe(200);
      expect(await theirs.json()).toEqual({ notifications: [] });
      const patched = await fetch(`${context().topology.baseUrl}/user/inapp`, {
        method: 'PATCH',
        headers: { authorization: otherAuth, 'content-type': 'application/json' },
        body: JSON.stringify({ trackingIds: [trackingId], archived: new Date().toISOString() }),
      });
      expect(patched.status).toBe(200);
      // Credentials of the other environment cannot use this one's path.
      const crossed = await browser(userId, 'notifications/INAPP_WEB', { auth: otherAuth });
      expect(crossed.status).toBe(401);
      const mine = (await userApi(userId).getInAppNotifications(undefined, 5)).notifications;
      expect(mine.map((n) => n.id)).toEqual([trackingId]);
      expect(mine[0]?.archived).toBeUndefined();
    });

    it('tells a plain GET /ws (no upgrade) to upgrade: 426 with the error body, while upgrades still open', async () => {
      const plain = await fetch(`${context().topology.baseUrl}/ws?envId=${envId}&userId=someone`);
      expect(plain.status).toBe(426);
      expect(plain.headers.get('upgrade')).toBe('websocket');
      expect(((await plain.json()) as { error: { code: string } }).error.code).toBe('UPGRADE_REQUIRED');
      const userId = uniqueName('plain');
      const socket = await openInboxSocket(context().topology.baseUrl, {
        envId,
        userId,
        userIdHash: hash(userId),
      });
      socket.close();
    });
  });
}
