import { readMailReport, reportPartsOf } from './mail-reports';

const headers = 'From: Shop <shop@example.com>\r\nX-Notify-Ref: abc.def\r\nSubject: Hi\r\n';

describe('readMailReport', () => {
  it('reads a permanent failure from a DSN (RFC 3464), with its recipient, diagnostic and the message ref', () => {
    const report = readMailReport([
      { contentType: 'text/plain', text: 'Delivery failed' },
      {
        contentType: 'message/delivery-status',
        text:
          'Reporting-MTA: dns; mx.example.net\r\n\r\nFinal-Recipient: rfc822; ann@example.org\r\nAction: failed\r\n' +
          'Status: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 <ann@example.org>:\r\n  User unknown\r\n',
      },
      { contentType: 'text/rfc822-headers', text: headers },
    ]);
    expect(report).toEqual({
      kind: 'bounce',
      code: 'PERMANENT_NO_EMAIL_BOUNCE',
      permanent: true,
      status: '5.1.1',
      recipient: 'ann@example.org',
      diagnostic: 'smtp; 550 5.1.1 <ann@example.org>: User unknown',
      ref: 'abc.def',
    });
  });

  it('reads a complaint from an ARF report (RFC 5965) by its feedback type', () => {
    const report = readMailReport([
      {
        contentType: 'message/feedback-report',
        text: 'Feedback-Type: abuse\r\nUser-Agent: FBL/1\r\nVersion: 1\r\nOriginal-Rcpt-To: ann@example.org\r\n',
      },
      { contentType: 'message/rfc822', text: `${headers}\r\nbody` },
    ]);
    expect(report).toEqual({
      kind: 'complaint',
      code: 'COMPLAINT_ABUSE',
      feedbackType: 'abuse',
      recipient: 'ann@example.org',
      ref: 'abc.def',
    });
    expect(
      readMailReport([{ contentType: 'message/feedback-report', text: 'Feedback-Type: opt-out\r\n' }]),
    ).toMatchObject({ code: 'COMPLAINT_OTHER' });
  });

  it('splits a multipart/report into its parts, decoding base64 and quoted-printable bodies', () => {
    const raw = [
      'From: mailer-daemon@mx.example.org',
      'Content-Type: multipart/report; report-type=delivery-status;',
      '\tboundary="b1"',
      '',
      'preamble',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Delivery to ann=40example.org failed',
      '--b1',
      'Content-Type: message/delivery-status',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('Final-Recipient: rfc822; ann@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n').toString(
        'base64',
      ),
      '--b1',
      'Content-Type: text/rfc822-headers',
      '',
      headers,
      '--b1--',
      '',
    ].join('\r\n');
    const parts = reportPartsOf(raw);
    expect(parts.map((p) => p.contentType)).toEqual([
      'text/plain',
      'message/delivery-status',
      'text/rfc822-headers',
    ]);
    expect(parts[0]?.text).toContain('ann@example.org failed');
    expect(readMailReport(parts)).toMatchObject({ kind: 'bounce', status: '5.1.1', ref: 'abc.def' });
    expect(reportPartsOf('Subject: hi\r\n\r\nhello')).toEqual([]);
    expect(reportPartsOf('Content-Type: multipart/report\r\n\r\nno boundary')).toEqual([]);
  });

  it('reads nothing from a delay, a plain message or a malformed report', () => {
    const delayed = 'Final-Recipient: rfc822; a@b.c\r\nAction: delayed\r\nStatus: 4.4.7\r\n';
    expect(readMailReport([{ contentType: 'message/delivery-status', text: delayed }])).toBeUndefined();
    expect(readMailReport([{ contentType: 'text/plain', text: 'hello' }])).toBeUndefined();
    expect(
      readMailReport([{ contentType: 'message/delivery-status', text: '\u0000garbage\r\n::::' }]),
    ).toBeUndefined();
    expect(
      readMailReport([{ contentType: 'message/feedback-report', text: 'nothing: here' }]),
    ).toBeUndefined();
    expect(
      readMailReport([{ contentType: 'message/delivery-status', text: 'Action: failed\r\nStatus: x.y.z' }]),
    ).toBeUndefined();
  });
});
