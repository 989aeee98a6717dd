export { SendSmsUseCase } from './send-sms.usecase';
export { SmsSenderModule } from './sms-sender.module';
