import { classifySmtpFailure, type EmailFailedCode } from './email-failure';

/** One MIME part of a received report, as the inbound listener hands it over. */
export interface ReportPart {
  readonly contentType: string;
  readonly text: string;
}

/**
 * What a report arriving by SMTP says about one of our messages: a delivery failure (DSN, RFC
 * 3464) or a complaint (ARF, RFC 5965). `ref` is the message's X-Notify-Ref header, quoted back in
 * the report's copy of the original headers.
 */
export type MailReport =
  | {
      readonly kind: 'bounce';
      readonly code: EmailFailedCode;
      readonly permanent: boolean;
      readonly status: string;
      readonly recipient?: string;
      readonly diagnostic?: string;
      readonly ref?: string;
    }
  | {
      readonly kind: 'complaint';
      readonly code: EmailFailedCode;
      readonly feedbackType: string;
      readonly recipient?: string;
      readonly ref?: string;
    };

const MAX_PART = 64 * 1024;
const MAX_PARTS = 20;

/** A MIME entity's header fields (unfolded, lower-case names) and its body. */
function entity(text: string): { headers: Map<string, string>; body: string } {
  const split = text.search(/\r?\n\r?\n/);
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? '' : text.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const match = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
    if (match?.[1] !== undefined && !headers.has(match[1].toLowerCase()))
      headers.set(match[1].toLowerCase(), (match[2] ?? '').trim());
  }
  return { headers, body };
}

function decode(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    default:
      return body;
  }
}

/**
 * The parts of a `multipart/report` message (RFC 6522), as raw text: each part's content type and
 * decoded body (base64 and quoted-printable). Anything else, or a malformed message, has none.
 * Mail parsers fold `message/delivery-status` into the message's text, so reports are read here.
 */
export function reportPartsOf(raw: string): ReportPart[] {
  const { headers, body } = entity(raw.slice(0, 10 * 1024 * 1024));
  const type = headers.get('content-type') ?? '';
  if (!/^multipart\/report\b/i.test(type)) return [];
  const boundary = /boundary="?([^";]{1,200})"?/i.exec(type)?.[1];
  if (boundary === undefined) return [];
  const delimiter = `--${boundary}`;
  return body
    .split(delimiter)
    .slice(1, MAX_PARTS + 1)
    .filter((chunk) => !chunk.startsWith('--'))
    .map((chunk) => {
      const part = entity(chunk.replace(/^[ \t]*\r?\n/, ''));
      return {
        contentType:
          (part.headers.get('content-type') ?? 'text/plain').split(';')[0]?.trim().toLowerCase() ??
          'text/plain',
        text: decode(part.body, part.headers.get('content-transfer-encoding')).slice(0, MAX_PART),
      };
    });
}

/** Header-style fields (`Name: value`, continuation lines unfolded), lower-case names; blocks split on blank lines. */
function fieldBlocks(text: string): Map<string, string>[] {
  return text
    .slice(0, MAX_PART)
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]+/g, ' ')
    .split(/\n\s*\n/)
    .map(
      (block) =>
        new Map(
          block
            .split('\n')
            .map((line) => /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line))
            .filter((m): m is RegExpExecArray => m !== null)
            .map((m) => [m[1]?.toLowerCase() ?? '', (m[2] ?? '').trim()] as const),
        ),
    );
}

/** `rfc822; user@example.com` → `user@example.com`. */
const address = (value: string | undefined) => value?.split(';').pop()?.trim() || undefined;

const COMPLAINTS: Readonly<Record<string, EmailFailedCode>> = {
  abuse: 'COMPLAINT_ABUSE',
  fraud: 'COMPLAINT_FRAUD',
  virus: 'COMPLAINT_VIRUS',
  'not-spam': 'COMPLAINT_NOT_SPAM',
  'auth-failure': 'COMPLAINT_AUTH',
  other: 'COMPLAINT_OTHER',
};

/**
 * The report in these parts, if they hold one we act on: a failed delivery (a delayed one is not
 * final and says nothing) or a complaint. Anything malformed reads as no report.
 */
export function readMailReport(parts: readonly ReportPart[]): MailReport | undefined {
  const type = (t: string) => parts.find((p) => p.contentType.toLowerCase() === t);
  const original = parts.find((p) =>
    /^(message\/rfc822|text\/rfc822-headers|message\/rfc822-headers)$/i.test(p.contentType),
  );
  const ref =
    original === undefined
      ? undefined
      : /^X-Notify-Ref:\s*(\S+)/im.exec(original.text.slice(0, MAX_PART))?.[1];
  const feedback = type('message/feedback-report');
  if (feedback !== undefined) {
    const fields = fieldBlocks(feedback.text)[0];
    const feedbackType = fields?.get('feedback-type')?.toLowerCase();
    if (feedbackType === undefined) return undefined;
    const recipient = address(fields?.get('original-rcpt-to'));
    return {
      kind: 'complaint',
      code: COMPLAINTS[feedbackType] ?? 'COMPLAINT_OTHER',
      feedbackType,
      ...(recipient !== undefined ? { recipient } : {}),
      ...(ref !== undefined ? { ref } : {}),
    };
  }
  const status = type('message/delivery-status');
  if (status === undefined) return undefined;
  const recipientBlock = fieldBlocks(status.text).find((b) => b.has('action') && b.has('status'));
  const action = recipientBlock?.get('action')?.toLowerCase();
  const code = /^([245])\.\d{1,3}\.\d{1,3}/.exec(recipientBlock?.get('status') ?? '')?.[0];
  if (action !== 'failed' || code === undefined) return undefined;
  const diagnostic = recipientBlock?.get('diagnostic-code')?.slice(0, 1_000);
  const recipient = address(
    recipientBlock?.get('final-recipient') ?? recipientBlock?.get('original-recipient'),
  );
  const permanent = code.startsWith('5');
  return {
    kind: 'bounce',
    code: classifySmtpFailure(permanent ? 550 : 450, `${code} ${diagnostic ?? ''}`).code,
    permanent,
    status: code,
    ...(recipient !== undefined ? { recipient } : {}),
    ...(diagnostic !== undefined ? { diagnostic } : {}),
    ...(ref !== undefined ? { ref } : {}),
  };
}
