export {
  type CaughtAttachment,
  type CaughtMail,
  MailCatcher,
  mailOutboxView,
  type MailCatcherOptions,
  type Refusal,
} from './mail-catcher';
export { COMPLAINT_DOMAIN, reportComplaints } from './complaint-reporter';
export { rehearsalRefusals } from './rehearsal';
