export {
  type CaughtAttachment,
  type CaughtMail,
  MailCatcher,
  type MailCatcherOptions,
  type Refusal,
} from './mail-catcher';
export { MailCatcherModule } from './dev-mail.controller';
