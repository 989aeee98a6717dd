import { loadAppConfig } from '@notify/platform';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AttachmentFetcher } from './attachment-fetcher';

describe('AttachmentFetcher', () => {
  let server: Server;
  let base: string;
  const fetcher = new AttachmentFetcher(
    loadAppConfig({
      EGRESS_ALLOW_PRIVATE_NETWORKS: 'true',
      ATTACHMENT_FETCH_CONCURRENCY: '2',
      ATTACHMENT_FETCH_TIMEOUT_MS: '1000',
      EMAIL_ATTACHMENTS_MAX_MB: '1',
    }),
  );

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/drip') {
        res.writeHead(200);
        const timer = setInterval(() => res.write('x'), 50);
        res.once('close', () => clearInterval(timer));
        return;
      }
      const size = Number(req.url?.slice(1));
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.alloc(size, 1));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const byUrl = (filename: string, path: string) => ({ filename, url: `${base}${path}` });
  const inline = (filename: string, bytes: number) => ({
    filename,
    content: Buffer.alloc(bytes).toString('base64'),
  });

  it('hands the files to the send, inline and downloaded', async () => {
    const sizes = await fetcher.withAttachments(
      [byUrl('a.pdf', '/1000'), inline('b.txt', 10)],
      async (files) => files.map((f) => [f.filename, (f.content as Buffer).length, f.contentType]),
    );
    expect(sizes).toEqual([
      ['a.pdf', 1000, 'application/pdf'],
      ['b.txt', 10, undefined],
    ]);
  });

  it('refuses an email whose files together exceed the budget, inline ones counted too', async () => {
    const send = jest.fn();
    await expect(
      fetcher.withAttachments([byUrl('a', '/600000'), byUrl('b', '/600000')], send),
    ).rejects.toThrow(/larger than allowed/);
    await expect(fetcher.withAttachments([inline('a', 700_000), inline('b', 700_000)], send)).rejects.toThrow(
      /together are larger than 1048576 bytes/,
    );
    await expect(
      fetcher.withAttachments([inline('a', 700_000), byUrl('b', '/600000')], send),
    ).rejects.toThrow(/larger than allowed/);
    expect(send).not.toHaveBeenCalled();
  });

  it('cuts off a download that drips past the deadline, naming the file', async () => {
    await expect(fetcher.withAttachments([byUrl('slow.bin', '/drip')], async () => 'sent')).rejects.toThrow(
      /"slow\.bin": .*did not finish within 1000 ms/,
    );
  });

  it('lets at most ATTACHMENT_FETCH_CONCURRENCY emails hold downloaded files at once', async () => {
    let holding = 0;
    let most = 0;
    const send = async () => {
      holding++;
      most = Math.max(most, holding);
      await new Promise((resolve) => setTimeout(resolve, 50));
      holding--;
    };
    await Promise.all(Array.from({ length: 6 }, () => fetcher.withAttachments([byUrl('f', '/100')], send)));
    expect(most).toBe(2);
  });
});
