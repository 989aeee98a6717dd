export {
  type CaughtAttachment,
  type CaughtMail,
  MailCatcher,
  mailOutboxView,
  type MailCatcherOptions,
  type Refusal,
} from './mail-catcher';
export { reportComplaints } from './complaint-reporter';
export { rehearsalRefusals } from './rehearsal';
export { mailLocalPeer } from './mail.local-peer';
