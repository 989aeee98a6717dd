import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EgressError, isPrivateAddress, safeFetch } from './safe-fetch';

describe('isPrivateAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false],
    ['2606:4700::1111', false],
  ])('%s → %p', (address, expected) => expect(isPrivateAddress(address)).toBe(expected));
});

describe('safeFetch', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/file' }).end();
      } else if (req.url === '/big') {
        res.end(Buffer.alloc(2_048));
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses loopback and private targets unless allowed', async () => {
    await expect(safeFetch(`${base}/file`, { maxBytes: 1_000, allowPrivateNetworks: false })).rejects.toThrow(
      EgressError,
    );
    await expect(
      safeFetch(`http://localhost:${new URL(base).port}/file`, {
        maxBytes: 1_000,
        allowPrivateNetworks: false,
      }),
    ).rejects.toThrow(/private address/);
  });

  it('fetches, follows redirects and enforces the size limit when allowed', async () => {
    const allowed = { maxBytes: 1_000, allowPrivateNetworks: true };
    expect((await safeFetch(`${base}/redirect`, allowed)).content.toString()).toBe('hello');
    await expect(safeFetch(`${base}/big`, allowed)).rejects.toThrow(/larger than 1000 bytes/);
    await expect(safeFetch('file:///etc/passwd', allowed)).rejects.toThrow(/refusing file:/);
  });
});
