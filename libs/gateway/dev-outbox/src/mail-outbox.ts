import { type MailCatcher, mailOutboxView } from '@notify/local-peer-mail';
import type { OutboxSource } from './outbox-source';

/** The SMTP catcher as the email outbox. */
export function mailOutbox(catcher: MailCatcher): OutboxSource {
  return {
    channel: 'email',
    messages: () => catcher.messages().map(mailOutboxView),
    remove: (ids) => catcher.remove(ids.map(Number)),
  };
}
