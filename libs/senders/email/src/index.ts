export { EmailSenderModule } from './email-sender.module';
export { emailConfigProblems } from './relay-pools';
export { SendEmailUseCase } from './send-email.usecase';
