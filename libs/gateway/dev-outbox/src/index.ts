export { DevInboxModule, DevOutboxModule } from './dev-outbox.module';
