import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EgressError } from './guard';
import { safeFetch } from './safe-fetch';

describe('safeFetch', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/file' }).end();
      } else if (req.url === '/big') {
        res.end(Buffer.alloc(2_048));
      } else if (req.url === '/big-chunked') {
        // No Content-Length: the limit must hold while streaming.
        res.write(Buffer.alloc(600));
        res.end(Buffer.alloc(600));
      } else if (req.url === '/drip') {
        // One byte every 50 ms, for ever: never idle long enough for an idle timeout.
        res.writeHead(200);
        const timer = setInterval(() => res.write('x'), 50);
        res.once('close', () => clearInterval(timer));
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses loopback and private targets unless allowed', async () => {
    await expect(
      safeFetch(`${base}/file`, { maxBytes: 1_000, deadlineMs: 5_000, allowPrivateNetworks: false }),
    ).rejects.toThrow(EgressError);
    await expect(
      safeFetch(`http://localhost:${new URL(base).port}/file`, {
        maxBytes: 1_000,
        deadlineMs: 5_000,
        allowPrivateNetworks: false,
      }),
    ).rejects.toThrow(/private address/);
  });

  it('fetches, follows redirects and enforces the size limit when allowed', async () => {
    const allowed = { maxBytes: 1_000, deadlineMs: 5_000, allowPrivateNetworks: true };
    expect((await safeFetch(`${base}/redirect`, allowed)).content.toString()).toBe('hello');
    await expect(safeFetch(`${base}/big`, allowed)).rejects.toThrow(/more than 1000 bytes/);
    await expect(safeFetch(`${base}/big-chunked`, allowed)).rejects.toThrow(/more than 1000 bytes/);
    await expect(safeFetch('file:///etc/passwd', allowed)).rejects.toThrow(/refusing file:/);
  });

  it('cuts off a server that drips bytes at the overall deadline', async () => {
    const started = Date.now();
    await expect(
      safeFetch(`${base}/drip`, { maxBytes: 1_000_000, deadlineMs: 300, allowPrivateNetworks: true }),
    ).rejects.toThrow(/did not finish within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const fetching = safeFetch(`${base}/drip`, {
      maxBytes: 1_000_000,
      deadlineMs: 10_000,
      allowPrivateNetworks: true,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await expect(fetching).rejects.toThrow();
  });
});
