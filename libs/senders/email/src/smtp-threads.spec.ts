import { EgressError } from '@notify/platform';
import { testLogger } from '@notify/testing';
import { simpleParser } from 'mailparser';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { SmtpThreads } from './smtp-threads';
import { relayKey } from './smtp-pools';

const REGISTER = join(__dirname, '../../../../tools/testing/register-ts.cjs');

/** A loopback SMTP server that keeps what it is sent and refuses `bounce@…` at RCPT TO. */
async function smtpSink(): Promise<{ port: number; raw: Buffer[]; close: () => Promise<void> }> {
  const raw: Buffer[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo: (address, _session, callback) =>
      address.address.startsWith('bounce@')
        ? callback(Object.assign(new Error('5.1.1 no such mailbox'), { responseCode: 550 }))
        : callback(),
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        raw.push(Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, raw, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('SmtpThreads (emails composed and written on a worker thread)', () => {
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  let threads: SmtpThreads;
  const relay = () => ({ options: { secure: false, host: '127.0.0.1', port: sink.port }, tenant: false });

  beforeAll(async () => {
    sink = await smtpSink();
    threads = new SmtpThreads(
      { poolSize: 2, maxRelays: 10, egress: { allowPrivateNetworks: false } },
      1,
      testLogger(),
      ['-r', REGISTER],
    );
    await threads.ready(30_000);
  });

  afterAll(async () => {
    await threads.close();
    await sink.close();
  });

  it('sends a DKIM-signed message with a binary attachment, byte for byte', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    const sent = await threads.send(
      relay(),
      {
        from: 'notify@example.test',
        to: 'ann@example.test',
        subject: 'Your receipt',
        html: '<p>Attached.</p>',
        messageId: '<t-1@example.test>',
        attachments: [{ filename: 'receipt.bin', content: bytes }],
        dkim: {
          domainName: 'example.test',
          keySelector: 's1',
          privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
      },
      relayKey(relay()),
    );
    expect(sent).toEqual({ messageId: '<t-1@example.test>', accepted: ['ann@example.test'] });
    const received = sink.raw.at(-1);
    if (received === undefined) throw new Error('the sink received nothing');
    const parsed = await simpleParser(received);
    expect(parsed.headers.get('dkim-signature')).toMatchObject({ params: { d: 'example.test', s: 's1' } });
    expect(parsed.subject).toBe('Your receipt');
    expect(parsed.attachments[0]?.content.equals(bytes)).toBe(true);
  });

  it('gives back a refusal with the reply code and command the sender classifies it by', async () => {
    const error = (await threads
      .send(relay(), { from: 'notify@example.test', to: 'bounce@example.test', text: 'x' }, relayKey(relay()))
      .catch((e: unknown) => e)) as Record<string, unknown>;
    expect(error).toBeInstanceOf(Error);
    expect(error.responseCode).toBe(550);
    expect(error.command).toBe('RCPT TO');
    expect(String(error.response)).toContain('no such mailbox');
  });

  it('refuses a tenant relay on a private address as an EgressError, like the sender’s own thread', async () => {
    const tenant = { ...relay(), tenant: true };
    const received = sink.raw.length;
    const error = await threads
      .send(tenant, { from: 'notify@example.test', to: 'ann@example.test', text: 'x' }, relayKey(tenant))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressError);
    expect(sink.raw).toHaveLength(received);
  });
});
