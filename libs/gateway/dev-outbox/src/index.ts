export { DevInboxModule, DevOutboxModule } from './dev-outbox.module';
export { mailOutbox } from './mail-outbox';
export type { OutboxMessage, OutboxSource } from './outbox-source';
export { mobilePushOutbox, slackOutbox, twilioOutboxes, webPushOutbox } from './peer-outboxes';
