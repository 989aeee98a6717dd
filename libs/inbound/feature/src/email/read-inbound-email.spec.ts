import { INBOUND_EMAIL_LIMITS } from '@notify/domain';
import { randomBytes } from 'node:crypto';
import { InboundEmailReader, readInboundEmail } from './read-inbound-email';

const AT = '2026-11-24T10:00:00.000Z';
const crlf = (...lines: string[]) => Buffer.from(lines.join('\r\n'));

describe('readInboundEmail', () => {
  it('reads addresses (groups flattened), threading headers, both bodies and attachment descriptions', async () => {
    const mail = await readInboundEmail(
      crlf(
        'From: "Ann Example" <ann@example.org>',
        'To: Team: bob@example.org, carol@example.org;, help@in.test',
        'Cc: dave@example.org',
        'Reply-To: ann+replies@example.org',
        'Subject: =?UTF-8?B?UmU6IGjDqWxsbw==?=',
        'Message-ID: <m2@example.org>',
        'In-Reply-To: <m1@notify>',
        'References: <m0@notify> <m1@notify>',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b"',
        '',
        '--b',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>Hello <b>there</b></p>',
        '--b',
        'Content-Type: application/pdf; name="q.pdf"',
        'Content-Disposition: attachment; filename="q.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('%PDF-1.4').toString('base64'),
        '--b--',
        '',
      ),
      AT,
    );
    expect(mail).toEqual({
      from: 'ann@example.org',
      fromName: 'Ann Example',
      to: ['bob@example.org', 'carol@example.org', 'help@in.test'],
      cc: ['dave@example.org'],
      bcc: [],
      replyTo: ['ann+replies@example.org'],
      subject: 'Re: héllo',
      // No text part, and the HTML is not the whole message: no text body is made up.
      bodyText: '',
      bodyHtml: '<p>Hello <b>there</b></p>',
      attachments: [{ filename: 'q.pdf', contentType: 'application/pdf', size: 8 }],
      messageId: '<m2@example.org>',
      inReplyTo: '<m1@notify>',
      references: ['<m0@notify>', '<m1@notify>'],
      receivedAt: AT,
    });
  });

  it('keeps a message that is only HTML, however long, without making up a text body', async () => {
    const html = `<p>${'<b>x</b>'.repeat(300_000)}</p>`;
    const mail = await readInboundEmail(crlf('From: a@example.org', 'Content-Type: text/html', '', html), AT);
    expect(mail.bodyText).toBe('');
    expect(mail.bodyHtml).toBe(html.slice(0, INBOUND_EMAIL_LIMITS.bodyChars));
  });

  it('bounds what it keeps of an oversized message', async () => {
    const many = Array.from({ length: 200 }, (_, i) => `r${i}@example.org`).join(', ');
    const mail = await readInboundEmail(
      crlf(
        'From: a@example.org',
        `To: ${many}`,
        `Subject: ${'s'.repeat(5_000)}`,
        `References: ${Array.from({ length: 200 }, (_, i) => `<${i}@x>`).join(' ')}`,
        `Cc: ${'c'.repeat(5_000)}@example.org`,
        '',
        'x'.repeat(INBOUND_EMAIL_LIMITS.bodyChars * 2),
      ),
      AT,
    );
    expect(mail.to).toHaveLength(INBOUND_EMAIL_LIMITS.addresses);
    expect(mail.cc[0]?.length).toBe(320);
    expect(mail.subject).toHaveLength(INBOUND_EMAIL_LIMITS.subjectChars);
    expect(mail.references).toHaveLength(INBOUND_EMAIL_LIMITS.references);
    expect(mail.bodyText).toHaveLength(INBOUND_EMAIL_LIMITS.bodyChars);
  });

  it('returns empty parts for garbage and a message without headers, never throws', async () => {
    for (const raw of [
      randomBytes(64 * 1024),
      Buffer.alloc(0),
      crlf('no headers at all'),
      crlf('From: <<<@@@>>>', 'Content-Type: multipart/mixed; boundary=', '', '--'),
    ]) {
      const mail = await readInboundEmail(raw, AT);
      expect(mail.receivedAt).toBe(AT);
      expect(Array.isArray(mail.to)).toBe(true);
      expect(typeof mail.bodyText).toBe('string');
    }
  });

  it('reads a message chunk by chunk, counting attachments it does not keep, and lets go of one aborted half way', async () => {
    const attachment = randomBytes(300 * 1024)
      .toString('base64')
      .replace(/(.{76})/g, '$1\r\n');
    const raw = crlf(
      'From: ann@example.org',
      'Subject: parts',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'see attached',
      '--b',
      'Content-Type: application/octet-stream; name="blob.bin"',
      'Content-Transfer-Encoding: base64',
      '',
      attachment,
      '--b--',
      '',
    );
    const reader = new InboundEmailReader();
    for (let at = 0; at < raw.length; at += 1_000) await reader.write(raw.subarray(at, at + 1_000));
    const mail = await reader.end(AT);
    expect(mail.bodyText).toBe('see attached');
    expect(mail.attachments).toEqual([
      { filename: 'blob.bin', contentType: 'application/octet-stream', size: 300 * 1024 },
    ]);

    const aborted = new InboundEmailReader();
    await aborted.write(raw.subarray(0, 10_000));
    aborted.abort();
    await aborted.write(raw.subarray(10_000));
    await expect(aborted.end(AT)).rejects.toThrow();
  });
});
