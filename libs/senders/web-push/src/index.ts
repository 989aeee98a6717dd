export { WebPushSenderModule } from './web-push-sender.module';
