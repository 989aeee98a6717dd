export { DevOutboxModule } from './dev-outbox.module';
export { mailOutbox } from './mail-outbox';
export type { OutboxMessage, OutboxSource } from './outbox-source';
export { slackOutbox, twilioOutboxes } from './peer-outboxes';
