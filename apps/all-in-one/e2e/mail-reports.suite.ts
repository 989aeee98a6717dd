import { sleep, uniqueName } from '@notify/testing';
import { createTransport } from 'nodemailer';
import type { ChannelsContext } from './channels.suite';

const BOUNDARY = 'report-boundary';

/** A report as a remote MTA or mailbox provider sends it: multipart/report with the original headers. */
function report(
  kind: 'delivery-status' | 'feedback-report',
  machine: string,
  originalHeaders: string,
): string {
  return [
    'From: Mail Delivery System <mailer-daemon@mx.example.org>',
    'To: bounces@inbound.notify.test',
    `Subject: ${kind === 'delivery-status' ? 'Undelivered Mail Returned to Sender' : 'Abuse report'}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=${kind}; boundary="${BOUNDARY}"`,
    '',
    `--${BOUNDARY}`,
    'Content-Type: text/plain',
    '',
    'This is an automatically generated report.',
    `--${BOUNDARY}`,
    `Content-Type: message/${kind}`,
    '',
    machine,
    `--${BOUNDARY}`,
    'Content-Type: text/rfc822-headers',
    '',
    originalHeaders,
    `--${BOUNDARY}--`,
    '',
  ].join('\r\n');
}

/**
 * Bounces (DSN, RFC 3464) and complaints (ARF, RFC 5965) arriving by SMTP at the inbound listener
 * after the relay accepted a message: the message's log gets the failure, the user's address is
 * suppressed (the next email fails SUPPRESSED_* without reaching SMTP) until the suppression is
 * lifted; a malformed report is ignored and the listener keeps working.
 */
export function mailReportsSuite(context: () => ChannelsContext): void {
  describe('bounce and complaint reports by SMTP', () => {
    /** Delivers a report as the mail server at `from` (a loopback address this machine has). */
    const deliver = (raw: string, from = '127.0.0.1') =>
      createTransport({
        host: '127.0.0.1',
        port: Number(context().topology.env['INBOUND_SMTP_PORT']),
        localAddress: from,
        secure: false,
        ignoreTLS: true,
      }).sendMail({ envelope: { from: '', to: 'bounces@inbound.notify.test' }, raw });
    /** Sends an email, waits for it at the relay, answers its tracking id and the headers a report quotes. */
    const delivered = async (userId: string) => {
      const { client } = context();
      const { trackingId } = await client.send({
        type: 'newsletter',
        to: { id: userId, email: `${userId}@example.org` },
        email: { subject: 'News', html: '<p>news</p>' },
      });
      const mail = await context().mailFor(trackingId);
      expect(mail.envelope.from).toBe('bounces@inbound.notify.test');
      const ref = mail.headers['x-notify-ref'] ?? '';
      expect(ref).toMatch(/^[\w-]+\.[\w-]+$/);
      return { trackingId, headers: `From: shop@example.com\r\nX-Notify-Ref: ${ref}\r\nSubject: News\r\n` };
    };
    const nextEmailFails = async (userId: string, code: string) => {
      const { trackingId } = await context().client.send({
        type: 'newsletter',
        to: { id: userId },
        email: { subject: 'More', html: '<p>more</p>' },
      });
      expect(await context().logOf(trackingId, (l) => l.email_failed_code !== undefined)).toMatchObject({
        email_failed_code: code,
      });
      expect(
        context()
          .topology.mail.messages()
          .some((m) => m.headers['x-notify-tracking-id'] === trackingId),
      ).toBe(false);
    };
    const suppressionOf = async (userId: string) =>
      (
        (await (
          await fetch(`${context().topology.baseUrl}/users/${userId}`, {
            headers: { authorization: `Bearer ${context().topology.apiKey}` },
          })
        ).json()) as { emailSuppressionStatus?: { reason: string } }
      ).emailSuppressionStatus;
    const lift = (userId: string) =>
      fetch(`${context().topology.baseUrl}/user_suppression/${userId}/channel/EMAIL`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${context().topology.apiKey}` },
      });

    it('suppresses a user after a DSN reports a permanent failure, until the suppression is lifted', async () => {
      const userId = uniqueName('dsn');
      const { trackingId, headers } = await delivered(userId);
      await deliver(
        report(
          'delivery-status',
          `Reporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; ${userId}@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 User unknown`,
          headers,
        ),
      );
      expect(await context().logOf(trackingId, (l) => l.email_failed_code !== undefined)).toMatchObject({
        email_failed_code: 'PERMANENT_NO_EMAIL_BOUNCE',
        email_failed_recipient: `${userId}@example.org`,
      });
      expect(await suppressionOf(userId)).toMatchObject({ reason: 'Bounce' });
      await nextEmailFails(userId, 'SUPPRESSED_BOUNCE');

      expect((await lift(userId)).status).toBe(200);
      const again = await context().client.send({
        type: 'newsletter',
        to: { id: userId },
        email: { subject: 'Back', html: '<p>back</p>' },
      });
      const back = await context().logOf(
        again.trackingId,
        (l) => l.email_delivered_at !== undefined || l.email_failed_at !== undefined,
      );
      expect(back).toMatchObject({ email_delivered_at: expect.any(String) });
    });

    it('rehearses a complaint: mail to @complaint.test is accepted, then reported back and suppressed', async () => {
      const userId = uniqueName('spam');
      const { trackingId } = await context().client.send({
        type: 'newsletter',
        to: { id: userId, email: `${userId}@complaint.test` },
        email: { subject: 'News', html: '<p>news</p>' },
      });
      await context().logOf(trackingId, (l) => l.email_delivered_at !== undefined);
      expect(await context().logOf(trackingId, (l) => l.email_failed_code !== undefined)).toMatchObject({
        email_failed_code: 'COMPLAINT_ABUSE',
        email_failed_recipient: `${userId}@complaint.test`,
      });
      expect(await suppressionOf(userId)).toMatchObject({ reason: 'Complaint' });
      expect((await lift(userId)).status).toBe(200);
    });

    it('suppresses a user after an ARF complaint, and ignores malformed or foreign reports', async () => {
      const userId = uniqueName('arf');
      const { trackingId, headers } = await delivered(userId);
      await deliver(
        report('feedback-report', 'Feedback-Type: abuse\r\nUser-Agent: FBL/1.0\r\nVersion: 1', headers),
      );
      expect(await context().logOf(trackingId, (l) => l.email_failed_code !== undefined)).toMatchObject({
        email_failed_code: 'COMPLAINT_ABUSE',
      });
      await nextEmailFails(userId, 'SUPPRESSED_COMPLAINT');

      const other = uniqueName('forged');
      const victim = await delivered(other);
      await deliver(report('delivery-status', 'garbage\r\n\u0000::', victim.headers));
      await deliver(
        report(
          'feedback-report',
          'Feedback-Type: abuse',
          victim.headers.replace(
            /X-Notify-Ref: (\S+)/,
            // One signature character changed where all six of its bits count (the last one
            // carries padding bits, so changing it may leave the signature as it was).
            (_m, ref: string) => {
              const dot = ref.indexOf('.') + 1;
              return `X-Notify-Ref: ${ref.slice(0, dot)}${ref[dot] === 'A' ? 'B' : 'A'}${ref.slice(dot + 1)}`;
            },
          ),
        ),
      );
      // A complaint quoting a real reference, delivered by a server that is no configured feedback
      // loop, whatever its From header says.
      await deliver(report('feedback-report', 'Feedback-Type: abuse', victim.headers), '127.0.0.3');
      await deliver('Subject: hello\r\n\r\njust a message');
      await sleep(1_500);
      expect(await suppressionOf(other)).toBeUndefined();
      expect((await lift(userId)).status).toBe(200);
    });
  });
}
