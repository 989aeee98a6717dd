import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { init, InAppClientError, type InAppClient, type Item } from './index';

interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}
type Reply = (request: Received) => { status?: number; body?: unknown };

const CLIENT_ID = 'env-1';
const USER_ID = 'Zoë-用户';
const USER_PATH = '/env-1/users/Zo%C3%AB-%E7%94%A8%E6%88%B7/';

let server: Server;
let baseUrl: string;
let received: Received[];
let reply: Reply;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const text = Buffer.concat(chunks).toString('utf8');
      const entry: Received = {
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      };
      received.push(entry);
      const { status = 200, body = { success: true } } = reply(entry);
      const isText = typeof body === 'string';
      response.writeHead(status, { 'content-type': isText ? 'text/plain' : 'application/json' });
      response.end(isText ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
  reply = () => ({});
});

const client = (options: { hashedUserId?: string } = {}): InAppClient =>
  init({ clientId: CLIENT_ID, userId: USER_ID, baseUrl: `${baseUrl}/`, ...options });

const decodedBasic = (headers: IncomingHttpHeaders): string => {
  const [scheme, value] = (headers.authorization ?? '').split(' ');
  expect(scheme).toBe('Basic');
  return Buffer.from(value ?? '', 'base64').toString('utf8');
};

const anItem = (n: number, overrides: Partial<Item> = {}): Item => ({
  id: `t-${n}`,
  notificationId: 'welcome',
  seen: false,
  title: `Item ${n}`,
  date: new Date(Date.UTC(2025, 0, 31 - n)).toISOString(),
  ...overrides,
});

/** A feed of `items` (newest first) honouring `count` and `before`, strictly older unless `inclusive`. */
const feed =
  (items: Item[], inclusive = false): Reply =>
  ({ query }) => {
    const before = query.get('before');
    const count = Number(query.get('count'));
    const older = items.filter(
      (item) => before === null || (inclusive ? item.date <= before : item.date < before),
    );
    return { body: { notifications: older.slice(0, count) } };
  };

describe('authentication', () => {
  it('sends Basic base64(clientId:userId:hashedUserId) over UTF-8 bytes', async () => {
    await client({ hashedUserId: 'h4sh+/=' }).getUser();
    expect(decodedBasic(received[0].headers)).toBe('env-1:Zoë-用户:h4sh+/=');
  });

  it('leaves the hash out when there is none', async () => {
    await client().getUser();
    expect(decodedBasic(received[0].headers)).toBe('env-1:Zoë-用户');
  });
});

describe('notifications', () => {
  it('asks for one page by count and before, and reports whether it was full', async () => {
    const items = [anItem(1), anItem(2)];
    reply = () => ({ body: { notifications: items } });
    const page = await client().getNotifications({ count: 2, before: '2025-02-01T00:00:00.000Z' });

    expect(received[0]).toMatchObject({ method: 'GET', path: `${USER_PATH}notifications/INAPP_WEB` });
    expect(Object.fromEntries(received[0].query)).toEqual({
      count: '2',
      before: '2025-02-01T00:00:00.000Z',
    });
    expect(page).toEqual({ items, hasMore: true, oldestReceived: items[1].date });
  });

  it('reports a short page as the last one, and an empty page without an oldest date', async () => {
    reply = () => ({ body: { notifications: [anItem(1)] } });
    expect(await client().getNotifications({ count: 5 })).toMatchObject({ hasMore: false });
    expect(received[0].query.has('before')).toBe(false);

    reply = () => ({ body: { notifications: [] } });
    expect(await client().getNotifications()).toEqual({ items: [], hasMore: false });
  });

  it('walks the pages by the oldest date seen until a page is empty', async () => {
    const items = [1, 2, 3, 4, 5].map((n) => anItem(n));
    reply = feed(items);
    const walked: string[] = [];
    for await (const item of client().notifications({ pageSize: 2 })) walked.push(item.id);

    expect(walked).toEqual(['t-1', 't-2', 't-3', 't-4', 't-5']);
    expect(received.map(({ query }) => query.get('before'))).toEqual([
      null,
      items[1].date,
      items[3].date,
      items[4].date,
    ]);
    expect(received.every(({ query }) => query.get('count') === '2')).toBe(true);
  });

  it('yields each item once when pages overlap, and stops when a page brings nothing new', async () => {
    reply = feed(
      [1, 2, 3, 4].map((n) => anItem(n)),
      true,
    );
    const walked: string[] = [];
    for await (const item of client().notifications({ pageSize: 2 })) walked.push(item.id);

    expect(walked).toEqual(['t-1', 't-2', 't-3', 't-4']);
  });

  it('stops after count items', async () => {
    reply = feed([1, 2, 3, 4, 5].map((n) => anItem(n)));
    const walked: string[] = [];
    for await (const item of client().notifications({ count: 3, pageSize: 2 })) walked.push(item.id);

    expect(walked).toEqual(['t-1', 't-2', 't-3']);
    expect(received).toHaveLength(2);
  });
});

describe('marks', () => {
  const stampedBetween = (value: unknown, from: number, to: number): boolean =>
    typeof value === 'string' && Date.parse(value) >= from && Date.parse(value) <= to;

  it('patches opened, clicked and archived with the current time as JSON', async () => {
    const from = Date.now();
    const inbox = client();
    await inbox.markOpened(['a', 'b']);
    await inbox.markClicked(['a']);
    await inbox.markArchived(['b']);
    const to = Date.now();

    expect(received.map(({ method, path }) => `${method} ${path}`)).toEqual(
      Array(3).fill(`PATCH ${USER_PATH}notifications/INAPP_WEB`),
    );
    expect(received.every(({ headers }) => headers['content-type'] === 'application/json')).toBe(true);
    const [opened, clicked, archived] = received.map(({ body }) => body as Record<string, unknown>);
    expect(opened).toEqual({ trackingIds: ['a', 'b'], opened: expect.any(String) });
    expect(clicked).toEqual({ trackingIds: ['a'], clicked: expect.any(String) });
    expect(archived).toEqual({ trackingIds: ['b'], archived: expect.any(String) });
    expect(stampedBetween(opened['opened'], from, to)).toBe(true);
    expect(stampedBetween(archived['archived'], from, to)).toBe(true);
  });

  it('un-archives with archived: null', async () => {
    await client().markArchived(['b'], false);
    expect(received[0].body).toEqual({ trackingIds: ['b'], archived: null });
  });

  it('sends nothing for no ids, and at most 100 ids per request', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `t-${i}`);
    await client().markOpened([]);
    await client().markOpened(ids);

    const sent = received.map(({ body }) => (body as { trackingIds: string[] }).trackingIds);
    expect(sent).toEqual([ids.slice(0, 100), ids.slice(100)]);
  });
});

describe('unread count, preferences and the user', () => {
  it('reads the unread count from /user/inapp/unread', async () => {
    reply = () => ({ body: { count: 7 } });
    expect(await client({ hashedUserId: 'h' }).unreadCount()).toBe(7);
    expect(received[0]).toMatchObject({ method: 'GET', path: '/user/inapp/unread' });
    expect(decodedBasic(received[0].headers)).toBe('env-1:Zoë-用户:h');
  });

  it('reads preferences and posts changes as an array', async () => {
    const stored = {
      preferences: [{ notificationId: 'welcome', channel: 'EMAIL', delivery: 'off' }],
      notifications: [{ notificationId: 'welcome', title: 'Welcome', channels: ['EMAIL'], options: {} }],
    };
    reply = ({ method }) => ({ body: method === 'GET' ? stored : { preferences: stored.preferences } });
    const inbox = client();

    expect(await inbox.getPreferences()).toEqual(stored);
    await inbox.setDeliveryOption({ notificationId: 'welcome', channel: 'INAPP_WEB', delivery: 'instant' });
    const updated = await inbox.updatePreferences([
      { notificationId: 'welcome', subNotificationId: 'p-1', channel: 'EMAIL', delivery: 'daily' },
    ]);

    expect(received.map(({ method, path }) => `${method} ${path}`)).toEqual([
      `GET ${USER_PATH}preferences`,
      `POST ${USER_PATH}preferences`,
      `POST ${USER_PATH}preferences`,
    ]);
    expect(received[1].body).toEqual([
      { notificationId: 'welcome', channel: 'INAPP_WEB', delivery: 'instant' },
    ]);
    expect(received[2].body).toEqual([
      { notificationId: 'welcome', subNotificationId: 'p-1', channel: 'EMAIL', delivery: 'daily' },
    ]);
    expect(updated).toEqual(stored.preferences);
  });

  it('identifies the user by POST and reads it by GET on the user path', async () => {
    reply = ({ body }) => ({ body: { id: USER_ID, ...(body as object) } });
    const inbox = client();

    expect(await inbox.identify({ email: 'zoe@example.com', timezone: 'Europe/Paris' })).toEqual({
      id: USER_ID,
      email: 'zoe@example.com',
      timezone: 'Europe/Paris',
    });
    expect(await inbox.getUser()).toEqual({ id: USER_ID });
    expect(received.map(({ method, path, body }) => [method, path, body])).toEqual([
      ['POST', USER_PATH, { email: 'zoe@example.com', timezone: 'Europe/Paris' }],
      ['GET', USER_PATH, undefined],
    ]);
  });
});

describe('errors', () => {
  it('rejects a non-2xx answer with its status and parsed body', async () => {
    const body = { message: 'Invalid hashedUserId.', code: 'UNAUTHORIZED', fix: 'Send the hash.' };
    reply = () => ({ status: 401, body });
    const error: unknown = await client()
      .getPreferences()
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(InAppClientError);
    expect(error).toMatchObject({ status: 401, body, message: 'HTTP 401: Invalid hashedUserId.' });
  });

  it('keeps a body that is not JSON as text', async () => {
    reply = () => ({ status: 502, body: 'Bad gateway' });
    await expect(client().unreadCount()).rejects.toMatchObject({
      status: 502,
      body: 'Bad gateway',
      message: 'HTTP 502: Bad gateway',
    });
  });

  it('refuses web push where the browser has no service workers, before calling the server', async () => {
    await expect(client().subscribeWebPush({ serviceWorkerUrl: '/sw.js' })).rejects.toThrow(/not supported/);
    expect(received).toEqual([]);
  });
});
