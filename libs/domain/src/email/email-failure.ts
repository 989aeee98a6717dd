import { isEmailAddress } from '../validation/text-checks';
import { type SendingDomainStatus, unverifiedSender } from './sending-domain';

export const EMAIL_FAILED_CODES = [
  'UNVERIFIED_SENDER',
  'PERMANENT_GENERAL_BOUNCE',
  'PERMANENT_NO_EMAIL_BOUNCE',
  'PERMANENT_SUPPRESSED_BOUNCE',
  'TRANSIENT_GENERAL_BOUNCE',
  'TRANSIENT_MAILBOX_FULL_BOUNCE',
  'TRANSIENT_MESSAGE_TOO_LARGE_BOUNCE',
  'TRANSIENT_CONTENT_REJECTED_BOUNCE',
  'TRANSIENT_ATTACHMENT_REJECTED_BOUNCE',
  'UNDETERMINED_BOUNCE',
  'COMPLAINT_ABUSE',
  'COMPLAINT_AUTH',
  'COMPLAINT_FRAUD',
  'COMPLAINT_NOT_SPAM',
  'COMPLAINT_OTHER',
  'COMPLAINT_VIRUS',
  'SUPPRESSED_COMPLAINT',
  'SUPPRESSED_BOUNCE',
  'MISSING_EMAIL_RECIPIENT',
  'MISSING_EMAIL_SUBJECT',
  'MISSING_EMAIL_HTML',
] as const;
export type EmailFailedCode = (typeof EMAIL_FAILED_CODES)[number];

export interface EmailFailure {
  readonly code: EmailFailedCode;
  readonly internal: string;
}

/**
 * Problems that make an email impossible to send, found before any connection is made. `sender`
 * says how the From address stands: the installation's default sender and the status of the
 * environment's sending domain for it, if it added one (see unverifiedSender).
 */
export function checkEmail(
  job: {
    to?: string;
    subject?: string;
    html?: string;
    fromAddress?: string;
    note?: string;
  },
  verifiedDomains: readonly string[],
  sender: { readonly defaultFrom?: string; readonly domainStatus?: SendingDomainStatus } = {},
): EmailFailure | undefined {
  const why = job.note === undefined ? '' : ` (${job.note})`;
  if (job.to === undefined || job.to.trim() === '')
    return { code: 'MISSING_EMAIL_RECIPIENT', internal: 'the user has no email address' };
  if (!isEmailAddress(job.to.trim()))
    return { code: 'MISSING_EMAIL_RECIPIENT', internal: `"${job.to}" is not an email address` };
  if (job.subject === undefined || job.subject.trim() === '')
    return { code: 'MISSING_EMAIL_SUBJECT', internal: `the email has no subject${why}` };
  if (job.html === undefined || job.html.trim() === '')
    return { code: 'MISSING_EMAIL_HTML', internal: `the email has no HTML body${why}` };
  const unverified = unverifiedSender(job.fromAddress, { ...sender, operatorDomains: verifiedDomains });
  return unverified === undefined ? undefined : { code: 'UNVERIFIED_SENDER', internal: unverified };
}

export interface SmtpOutcome {
  /** Worth another attempt later (4xx, connection trouble). */
  readonly retry: boolean;
  readonly code: EmailFailedCode;
}

/**
 * Classifies a refused SMTP transaction by its reply (RFC 5321 code and RFC 3463 enhanced
 * status), into the log's email failure codes. 4xx and network errors are retried; 5xx are final.
 */
export function classifySmtpFailure(responseCode: number | undefined, response: string): SmtpOutcome {
  const text = response.toLowerCase();
  const enhanced = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(response);
  const [klass, subject, detail] = enhanced ? [enhanced[1], Number(enhanced[2]), Number(enhanced[3])] : [];
  if (responseCode === undefined || responseCode < 400)
    return { retry: true, code: 'TRANSIENT_GENERAL_BOUNCE' };
  const transient = responseCode < 500 || klass === '4';
  if (subject === 2 && detail === 2) return { retry: transient, code: 'TRANSIENT_MAILBOX_FULL_BOUNCE' };
  if ((subject === 3 && detail === 4) || /too large|size limit|message size/.test(text)) {
    return { retry: transient, code: 'TRANSIENT_MESSAGE_TOO_LARGE_BOUNCE' };
  }
  if (transient) return { retry: true, code: 'TRANSIENT_GENERAL_BOUNCE' };
  if (/attachment/.test(text)) return { retry: false, code: 'TRANSIENT_ATTACHMENT_REJECTED_BOUNCE' };
  if (/spam|content|virus|blocked/.test(text))
    return { retry: false, code: 'TRANSIENT_CONTENT_REJECTED_BOUNCE' };
  if (/sender|not verified|not owned|not authori[sz]ed/.test(text))
    return { retry: false, code: 'UNVERIFIED_SENDER' };
  if (
    subject === 1 ||
    /user unknown|no such user|does not exist|unknown user|mailbox unavailable|invalid recipient/.test(text)
  ) {
    return { retry: false, code: 'PERMANENT_NO_EMAIL_BOUNCE' };
  }
  if (responseCode >= 500 && responseCode < 600) return { retry: false, code: 'PERMANENT_GENERAL_BOUNCE' };
  return { retry: false, code: 'UNDETERMINED_BOUNCE' };
}
