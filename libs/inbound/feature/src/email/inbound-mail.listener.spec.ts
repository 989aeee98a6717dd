import { loadAppConfig } from '@notify/platform';
import { systemClock } from '@notify/util';
import { awayFromMinuteBoundary, freePort, sleep, testLogger } from '@notify/testing';
import { createTransport } from 'nodemailer';
import { once } from 'node:events';
import { type AddressInfo, connect, createServer } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { InboundEmailUseCase } from './inbound-email.usecase';
import { InboundMailListener } from './inbound-mail.listener';
import type { MailReportsUseCase } from './mail-reports.usecase';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
/**
 * What the process holds after a full collection: JavaScript objects and the buffers' memory.
 * Collected twice: the buffers a collection finds dead are freed on a background thread, and the
 * next collection first waits for that, so the count read then holds no dead buffers.
 */
const live = () => {
  collect();
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

/**
 * The most the process holds above what it held at the start, sampled on a timer and once more
 * at `stop` (however few samples the timer managed). A full collection costs in proportion to all
 * the process holds, whatever else ran in it before (a whole unit run leaves it large), so the
 * timer waits four times as long as the last sample took: back-to-back collections would starve
 * the traffic being measured.
 */
function memoryWatch() {
  const before = live();
  let peak = before;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const sample = () => {
    const started = performance.now();
    peak = Math.max(peak, live());
    return performance.now() - started;
  };
  const next = (delay: number) => {
    timer = setTimeout(() => next(Math.max(200, 4 * sample())), delay);
  };
  next(200);
  return {
    /** Samples a last time and stops (once); the growth seen. */
    stop: () => {
      clearTimeout(timer);
      if (!stopped) sample();
      stopped = true;
      return peak - before;
    },
  };
}

const MB = 1024 * 1024;

async function listener(settings: Record<string, string>) {
  const port = await freePort();
  const received: unknown[] = [];
  const inboundEmail = {
    recipient: async () => ({ kind: 'service' }),
    takesReports: () => false,
    receive: async (mail: unknown) => {
      received.push(mail);
      return 1;
    },
  } as unknown as InboundEmailUseCase;
  const reports = { handle: async () => false } as unknown as MailReportsUseCase;
  const config = loadAppConfig({ INBOUND_SMTP_PORT: String(port), ...settings });
  const instance = new InboundMailListener(
    reports,
    inboundEmail,
    config,
    testLogger('inbound-smtp'),
    systemClock,
  );
  await instance.onApplicationBootstrap();
  return { instance, port, received };
}

const transport = (port: number) =>
  createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: false });

const message = (bytes: number) =>
  [
    'From: sender@example.org',
    'To: postmaster@example.test',
    'Subject: big',
    'Content-Type: text/plain; charset=utf-8',
    '',
    // Lines of 76 characters, as mail is written.
    ...Array.from(
      { length: Math.ceil(bytes / 78) },
      (_, i) => `${String(i).padStart(8, '0')}${'x'.repeat(68)}`,
    ),
    '',
  ].join('\r\n');

/** 64 KB of message lines, sent again and again: the sender holds nothing of what it sends. */
const LINES = Buffer.from(
  Array.from({ length: 840 }, (_, i) => `${String(i).padStart(8, '0')}${'x'.repeat(68)}\r\n`).join(''),
);

/**
 * One message of about `bytes` (a text part) by SMTP, its size declared (RFC 1870) unless not to;
 * answers the code of the first refusal, or of the end of DATA.
 */
async function smtpSend(port: number, bytes: number, declare = true): Promise<number> {
  const socket = connect(port, '127.0.0.1');
  const lines: string[] = [];
  let pending = '';
  let wake: (() => void) | undefined;
  socket.on('data', (data: Buffer) => {
    pending += data.toString('latin1');
    for (let end = pending.indexOf('\r\n'); end !== -1; end = pending.indexOf('\r\n')) {
      lines.push(pending.slice(0, end));
      pending = pending.slice(end + 2);
    }
    wake?.();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const reply = async (): Promise<number> => {
    for (;;) {
      const last = lines.findIndex((line) => /^\d{3} /.test(line));
      if (last !== -1) return Number(lines.splice(0, last + 1)[last]?.slice(0, 3));
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), closed]);
      if (socket.destroyed && lines.length === 0) return 0;
    }
  };
  const command = (line: string) => {
    socket.write(`${line}\r\n`);
    return reply();
  };
  try {
    for (const [step, expected] of [
      [() => reply(), 220],
      [() => command('EHLO sender.example.org'), 250],
      [() => command(`MAIL FROM:<sender@example.org>${declare ? ` SIZE=${bytes + 200}` : ''}`), 250],
      [() => command('RCPT TO:<postmaster@example.test>'), 250],
      [() => command('DATA'), 354],
    ] as const) {
      const code = await step();
      if (code !== expected) return code;
    }
    socket.write('From: sender@example.org\r\nSubject: big\r\nContent-Type: text/plain\r\n\r\n');
    for (let sent = 0; sent < bytes; sent += LINES.length)
      if (!socket.write(LINES)) await once(socket, 'drain');
    return await command('.');
  } finally {
    socket.destroy();
  }
}

/** The first line the listener answers a new connection with. */
const greeting = (port: number) =>
  new Promise<{ line: string; close: () => void }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('data', (data) => resolve({ line: data.toString(), close: () => socket.destroy() }));
  });

describe('InboundMailListener', () => {
  it('fails its start when its port is taken, instead of never listening', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const config = loadAppConfig({ INBOUND_SMTP_PORT: String(port) });
      const instance = new InboundMailListener(
        {} as MailReportsUseCase,
        {} as InboundEmailUseCase,
        config,
        testLogger('inbound-smtp'),
        systemClock,
      );
      await expect(instance.onApplicationBootstrap()).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it('reads concurrent large messages within its memory budget, answering 452 past it', async () => {
    const budget = 3 * MB;
    const { instance, port, received } = await listener({
      INBOUND_SMTP_MEMORY_MB: String(budget / MB),
      INBOUND_SMTP_CONNECTIONS_PER_CLIENT: '20',
    });
    const memory = memoryWatch();
    try {
      // As mail servers send (SIZE declared), and a few that do not declare it.
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => smtpSend(port, 2 * MB, i % 4 !== 3)),
      );
      const grew = memory.stop();
      const kept = answers.filter((code) => code === 250).length;
      expect(kept).toBeGreaterThan(0);
      expect(received).toHaveLength(kept);
      // Past the budget the answer is temporary: the sender keeps the message and tries again.
      expect(answers.filter((code) => code !== 250).every((code) => code === 452)).toBe(true);
      // Holding whole messages in memory grew the heap by about 4 bytes per byte sent (these eight
      // messages: about 64 MB); what is held now stays near the budget.
      expect(grew).toBeLessThan(3 * budget);
    } finally {
      memory.stop();
      await instance.onApplicationShutdown();
    }
  }, 120_000);

  it('refuses a client its connections past INBOUND_SMTP_CONNECTIONS_PER_CLIENT (421), and admits it again once one closes', async () => {
    const { instance, port } = await listener({ INBOUND_SMTP_CONNECTIONS_PER_CLIENT: '2' });
    try {
      const first = await greeting(port);
      const second = await greeting(port);
      expect([first.line, second.line].every((line) => line.startsWith('220'))).toBe(true);
      const third = await greeting(port);
      expect(third.line).toMatch(/^421 /);
      third.close();
      first.close();
      await sleep(100);
      const again = await greeting(port);
      expect(again.line).toMatch(/^220 /);
      again.close();
      second.close();
    } finally {
      await instance.onApplicationShutdown();
    }
  }, 30_000);

  it('answers 451 to a client past INBOUND_SMTP_MESSAGES_PER_MINUTE, and keeps taking the others', async () => {
    const { instance, port, received } = await listener({ INBOUND_SMTP_MESSAGES_PER_MINUTE: '2' });
    try {
      const send = () =>
        transport(port).sendMail({
          envelope: { from: 'sender@example.org', to: 'postmaster@example.test' },
          raw: message(1_000),
        });
      // The three messages count in the same minute.
      await awayFromMinuteBoundary();
      await send();
      await send();
      await expect(send()).rejects.toMatchObject({ responseCode: 451 });
      expect(received).toHaveLength(2);
    } finally {
      await instance.onApplicationShutdown();
    }
  }, 30_000);
});
