export { InAppSenderModule } from './inapp-sender.module';
