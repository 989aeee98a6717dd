export {
  type CaughtAttachment,
  type CaughtMail,
  MailCatcher,
  type MailCatcherOptions,
  type Refusal,
} from './mail-catcher';
