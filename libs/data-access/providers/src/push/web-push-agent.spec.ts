import { createServer, type Server } from 'node:net';
import { get } from 'node:https';
import { webPushAgent } from './web-push-agent';

describe('webPushAgent', () => {
  let server: Server;
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    // A plain TCP listener: reaching it at all is what the guard must prevent.
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const attempt = (url: string, allowPrivateNetworks: boolean) =>
    new Promise<Error>((resolve) => {
      const agent = webPushAgent({ allowPrivateNetworks });
      get(url, { agent }, () => resolve(new Error('answered')))
        .on('error', resolve)
        .on('close', () => agent.destroy());
    });

  it.each([
    ['an address', () => `https://127.0.0.1:${port}/push/x`, /^127\.0\.0\.1 is a private address$/],
    [
      'a name that resolves to one',
      () => `https://localhost:${port}/push/x`,
      /^localhost resolves to a private address/,
    ],
  ])('refuses %s on a private network before connecting', async (_, url, message) => {
    const before = connections;
    const error = await attempt(url(), false);
    expect(error).toMatchObject({ name: 'EgressError', message: expect.stringMatching(message) });
    expect(connections).toBe(before);
  });

  it('connects to a private address when private networks are allowed', async () => {
    const before = connections;
    await attempt(`https://127.0.0.1:${port}/push/x`, true);
    expect(connections).toBe(before + 1);
  });
});
