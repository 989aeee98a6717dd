import { createTransport } from 'nodemailer';
import type { CaughtMail, MailCatcher } from './mail-catcher';

/**
 * The address domain whose mail the catcher accepts and then reports as spam. The reports are
 * written as from `fbl@` this domain; the listener trusts them by the address they are delivered
 * from (loopback), a feedback loop it is configured with.
 */
const COMPLAINT_DOMAIN = 'complaint.test';

/**
 * Rehearses complaints: every message the catcher accepts for `@complaint.test` is reported back,
 * a moment later, as a mailbox provider's feedback loop would (ARF, RFC 5965, with the original
 * headers), by SMTP to `target` (the inbound service's listener). Answers how to stop it.
 */
export function reportComplaints(catcher: MailCatcher, target: { host: string; port: number }): () => void {
  const transport = createTransport({ host: target.host, port: target.port, secure: false, ignoreTLS: true });
  const timers = new Set<NodeJS.Timeout>();
  const stop = catcher.onMessage((mail) => {
    const complainers = mail.envelope.to.filter((to) => to.toLowerCase().endsWith(`@${COMPLAINT_DOMAIN}`));
    if (complainers.length === 0) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      for (const recipient of complainers)
        transport
          .sendMail({ envelope: { from: '', to: mail.envelope.from }, raw: arf(mail, recipient) })
          .catch(() => undefined);
    }, 200);
    timers.add(timer);
  });
  return () => {
    stop();
    for (const timer of timers) clearTimeout(timer);
    transport.close();
  };
}

function arf(mail: CaughtMail, recipient: string): string {
  const boundary = `arf-${mail.id}`;
  const original = Object.entries(mail.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return [
    `From: Feedback Loop <fbl@${COMPLAINT_DOMAIN}>`,
    `To: ${mail.envelope.from}`,
    'Subject: Complaint about a message you sent',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain',
    '',
    `${recipient} marked a message as spam.`,
    `--${boundary}`,
    'Content-Type: message/feedback-report',
    '',
    'Feedback-Type: abuse',
    'User-Agent: notify-local-feedback-loop/1',
    'Version: 1',
    `Original-Rcpt-To: ${recipient}`,
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    '',
    original,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
