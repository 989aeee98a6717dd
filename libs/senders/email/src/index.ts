export { EmailSenderModule } from './email-sender.module';
export { SendEmailUseCase } from './send-email.usecase';
