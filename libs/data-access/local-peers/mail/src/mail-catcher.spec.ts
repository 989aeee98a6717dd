import { connect, type Socket } from 'node:net';
import { eventually } from '@notify/testing';
import { createTransport } from 'nodemailer';
import { MailCatcher } from './mail-catcher';

/** Writes SMTP commands one at a time, waiting for each reply line. */
const converse = async (socket: Socket, commands: readonly string[]): Promise<string[]> => {
  const replies: string[] = [];
  let buffered = '';
  const nextReply = () =>
    new Promise<string>((resolve) => {
      const onData = (chunk: Buffer) => {
        buffered += chunk.toString();
        // A final reply line is "NNN text"; continuation lines are "NNN-text".
        const final = buffered.split('\r\n').find((line) => /^\d{3} /.test(line));
        if (final === undefined) return;
        buffered = '';
        socket.off('data', onData);
        resolve(final);
      };
      socket.on('data', onData);
    });
  replies.push(await nextReply());
  for (const command of commands) {
    socket.write(`${command}\r\n`);
    replies.push(await nextReply());
  }
  return replies;
};

describe('MailCatcher', () => {
  let catcher: MailCatcher;

  beforeEach(async () => {
    catcher = new MailCatcher();
    await catcher.start();
  });

  afterEach(async () => {
    await catcher.stop();
  });

  const send = (messageId: string) =>
    createTransport({ url: catcher.url, tls: { rejectUnauthorized: false } }).sendMail({
      from: 'app@example.com',
      to: 'ada@example.com',
      subject: 'Hello',
      html: '<p>Hi</p>',
      messageId,
    });

  it('keeps one copy per Message-ID and counts the repeats', async () => {
    await send('<one@example.com>');
    await send('<one@example.com>');
    await send('<two@example.com>');

    expect(catcher.messages().map((m) => m.messageId)).toEqual(['<one@example.com>', '<two@example.com>']);
    expect(catcher.repeatedDeliveries).toBe(1);
  });

  it('survives a client whose connection resets mid-transaction, and counts it', async () => {
    const socket = connect(catcher.port, '127.0.0.1');
    const replies = await converse(socket, [
      'EHLO sender.test',
      'MAIL FROM:<app@example.com>',
      'RCPT TO:<ada@example.com>',
      'DATA',
    ]);
    expect(replies.map((r) => r.slice(0, 3))).toEqual(['220', '250', '250', '250', '354']);
    // Half a message, then a reset (SO_LINGER 0), as when the sending process is killed.
    await new Promise((resolve) => socket.write('Subject: cut off\r\n\r\nhalf a mess', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.resetAndDestroy();

    await eventually(() => expect(catcher.abortedTransactions).toBe(1));
    await send('<after@example.com>');
    expect(catcher.messages().map((m) => m.subject)).toEqual(['Hello']);
  });
});
