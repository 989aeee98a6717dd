export { PushSenderModule } from './push-sender.module';
export { pushConfigProblems } from './push-config';
