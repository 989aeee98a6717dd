import { EgressError } from '@notify/platform';

/** What nodemailer's errors carry (RFC 5321 reply, the command it answered, its own error code). */
export interface SmtpError {
  readonly responseCode?: number;
  readonly response?: string;
  readonly message?: string;
  readonly code?: string;
  readonly command?: string;
}

export interface FailureText {
  /** The whole reply, for classification only (never logged for a tenant's relay). */
  readonly reply: string;
  /** `email_failed_internal`. */
  readonly internal: string;
  /** `email_failed_diagnostic_code`, when the relay answered the message itself. */
  readonly diagnostic?: string;
}

const BRIEF: Record<string, string> = {
  ECONNECTION: 'could not connect to the relay',
  ETIMEDOUT: 'the relay did not answer in time',
  ESOCKET: 'the connection to the relay failed',
  EDNS: 'the relay host does not resolve',
  ETLS: 'TLS with the relay failed',
  EAUTH: 'the relay refused the credentials',
  ENOAUTH: 'the relay requires credentials',
  EPROTOCOL: 'the relay did not answer as an SMTP server',
  EENVELOPE: 'the relay refused the envelope',
  EMESSAGE: 'the relay refused the message',
};

/** Commands whose reply is about this message (not the connection, greeting or login). */
const MESSAGE_COMMANDS = new Set(['MAIL FROM', 'RCPT TO', 'DATA']);
const MAX_DIAGNOSTIC = 300;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, MAX_DIAGNOSTIC);

/**
 * The log text of a refused or failed SMTP transaction. For the installation's relay, the reply as
 * given. For a tenant's relay, only its reply to the message itself (code, enhanced status, text,
 * one line, bounded) or a short reason: never a greeting banner or a connection error that would
 * tell the tenant about the network the sender runs in.
 */
export function describeSmtpFailure(error: unknown, tenant: boolean): FailureText {
  const smtp = error as SmtpError;
  const reply = smtp.response ?? smtp.message ?? String(error);
  if (!tenant) return { reply, internal: `SMTP: ${reply}`, diagnostic: reply.slice(0, 1_000) };
  if (error instanceof EgressError) return { reply, internal: `SMTP relay: ${error.message}` };
  if (smtp.responseCode !== undefined && smtp.command !== undefined && MESSAGE_COMMANDS.has(smtp.command)) {
    const diagnostic = oneLine(smtp.response ?? String(smtp.responseCode));
    return { reply, internal: `SMTP relay refused ${smtp.command} (${smtp.responseCode})`, diagnostic };
  }
  const brief = (smtp.code !== undefined ? BRIEF[smtp.code] : undefined) ?? 'the relay connection failed';
  return { reply, internal: `SMTP relay: ${brief}` };
}
