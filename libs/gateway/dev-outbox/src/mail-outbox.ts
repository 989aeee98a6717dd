import type { CaughtMail, MailCatcher } from '@notify/mail-catcher';
import type { OutboxMessage, OutboxSource } from './outbox-source';

const TRACKING_HEADER = 'x-notify-tracking-id';

function present(mail: CaughtMail): OutboxMessage {
  return {
    id: String(mail.id),
    receivedAt: mail.receivedAt,
    trackingId: mail.headers[TRACKING_HEADER],
    from: mail.from,
    to: mail.to,
    cc: mail.cc,
    bcc: mail.envelope.to.filter((address) => !mail.to.includes(address) && !mail.cc.includes(address)),
    replyTo: mail.replyTo,
    subject: mail.subject,
    html: mail.html,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.content.length,
    })),
    headers: mail.headers,
  };
}

/** The SMTP catcher as the email outbox. */
export function mailOutbox(catcher: MailCatcher): OutboxSource {
  return {
    channel: 'email',
    messages: () => catcher.messages().map(present),
    remove: (ids) => catcher.remove(ids.map(Number)),
  };
}
