import type { AddressInfo } from 'node:net';
import { type WebSocket as ServerSocket, WebSocketServer } from 'ws';
import { init, type ConnectionState, type InAppClient, type InitOptions, type Item } from './index';

let wss: WebSocketServer;
let baseUrl: string;
let connections: { url: string; socket: ServerSocket; closed: Promise<void> }[];
let clients: InAppClient[];

beforeAll(async () => {
  wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    path: '/ws',
    // Secure mode refuses the upgrade for a wrong hash.
    verifyClient: ({ req }: { req: { url?: string } }) => !req.url?.includes('userIdHash=wrong'),
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  wss.on('connection', (socket, request) => {
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    connections.push({ url: request.url ?? '', socket, closed });
  });
});

afterAll(async () => {
  for (const client of wss.clients) client.terminate();
  await new Promise((resolve) => wss.close(resolve));
});

beforeEach(() => {
  connections = [];
  clients = [];
});

afterEach(() => {
  for (const client of clients) client.close();
});

const client = (options: Partial<InitOptions> = {}): InAppClient => {
  const created = init({
    clientId: 'env 1',
    userId: 'Zoë-用户',
    baseUrl,
    reconnect: { initialDelayMs: 20, maxDelayMs: 40 },
    ...options,
  });
  clients.push(created);
  return created;
};

async function until(what: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const anItem = (id: string): Item => ({
  id,
  notificationId: 'welcome',
  seen: false,
  title: `Hello ${id}`,
  date: '2025-01-01T00:00:00.000Z',
});
const newItemsFrame = (...items: Item[]) =>
  JSON.stringify({ route: 'inapp_web/new_notifications', payload: { notifications: items } });

function listen(inbox: InAppClient): { batches: Item[][]; states: ConnectionState[]; stop: () => void } {
  const batches: Item[][] = [];
  const states: ConnectionState[] = [];
  const stopStates = inbox.onConnectionChange((state) => states.push(state));
  const stopItems = inbox.onNotifications((items) => batches.push(items));
  return {
    batches,
    states,
    stop: () => {
      stopItems();
      stopStates();
    },
  };
}

describe('the live connection', () => {
  it('opens on the first listener at /ws of the base URL, naming the environment, user and hash', async () => {
    const inbox = client({ hashedUserId: 'h+/=' });
    expect(connections).toHaveLength(0);
    const { states } = listen(inbox);
    await until('a connection', () => connections.length === 1 && states.includes('open'));

    expect(connections[0].url).toBe(
      '/ws?envId=env%201&userId=Zo%C3%AB-%E7%94%A8%E6%88%B7&userIdHash=h%2B%2F%3D',
    );
    expect(states).toEqual(['connecting', 'open']);
  });

  it('uses wsUrl when given', async () => {
    const { states } = listen(
      client({ baseUrl: 'http://127.0.0.1:1', wsUrl: `${baseUrl.replace('http', 'ws')}/ws` }),
    );
    await until('a connection', () => connections.length === 1 && states.includes('open'));
    expect(connections[0].url).toBe('/ws?envId=env%201&userId=Zo%C3%AB-%E7%94%A8%E6%88%B7');
  });

  it('hands new items to every listener and ignores other routes and unreadable frames', async () => {
    const inbox = client();
    const first = listen(inbox);
    const second: Item[][] = [];
    inbox.onNotifications((items) => second.push(items));
    await until('an open socket', () => first.states.includes('open') && connections.length === 1);

    const { socket } = connections[0];
    socket.send('not json');
    socket.send(JSON.stringify({ route: 'inapp_web/other', payload: { notifications: [anItem('x')] } }));
    socket.send(JSON.stringify({ route: 'inapp_web/new_notifications', payload: {} }));
    socket.send(newItemsFrame(anItem('a'), anItem('b')));
    await until('the items', () => first.batches.length > 0 && second.length > 0);

    expect(first.batches).toEqual([[anItem('a'), anItem('b')]]);
    expect(second).toEqual(first.batches);
  });

  it('reconnects after the server drops the connection and receives the next frame', async () => {
    const { batches, states } = listen(client());
    await until('an open socket', () => states.includes('open'));
    connections[0].socket.terminate();
    await until('a second connection', () => connections.length === 2);
    await until('the socket open again', () => states.filter((state) => state === 'open').length === 2);
    connections[1].socket.send(newItemsFrame(anItem('after')));
    await until('the item', () => batches.length > 0);

    expect(batches).toEqual([[anItem('after')]]);
    expect(states).toEqual(['connecting', 'open', 'closed', 'connecting', 'open']);
  });

  it('keeps retrying while the server refuses the upgrade', async () => {
    const { states } = listen(client({ hashedUserId: 'wrong' }));
    await until('three refused attempts', () => states.filter((state) => state === 'closed').length >= 3);

    expect(connections).toHaveLength(0);
    expect(states.slice(0, 4)).toEqual(['connecting', 'closed', 'connecting', 'closed']);
  });

  it('closes when the last listener leaves, and does not come back', async () => {
    const inbox = client();
    const first = listen(inbox);
    const second = listen(inbox);
    await until('an open socket', () => first.states.includes('open'));
    first.stop();
    await pause(100);
    expect(connections[0].socket.readyState).toBe(connections[0].socket.OPEN);

    second.stop();
    await connections[0].closed;
    await pause(300);
    expect(connections).toHaveLength(1);
  });

  it('stops for good on close(), even while waiting to reconnect', async () => {
    const inbox = client({ reconnect: { initialDelayMs: 200, maxDelayMs: 200 } });
    const { states } = listen(inbox);
    await until('an open socket', () => states.includes('open'));
    connections[0].socket.terminate();
    await until('the drop', () => states.includes('closed'));
    inbox.close();
    await pause(600);

    expect(connections).toHaveLength(1);
    inbox.onNotifications(() => undefined);
    await pause(100);
    expect(connections).toHaveLength(1);
  });

  it('closes an open socket on close() without reconnecting', async () => {
    const inbox = client();
    const { states } = listen(inbox);
    await until('an open socket', () => states.includes('open'));
    inbox.close();
    await connections[0].closed;
    await pause(300);

    expect(connections).toHaveLength(1);
    expect(states.at(-1)).toBe('closed');
  });
});
