import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from 'node:crypto';
import { domainName } from '@notify/util';
import { z } from 'zod';
import type { LogFields } from '../delivery-log/log-fields';
import type { TenantScope } from '../tenancy/tenant-scope';
import { domainOrIssue } from './domain-name.schema';

/**
 * Inbound email: an environment's addresses, the reply address the email
 * sender puts in Reply-To, and what a received message becomes in the log and its webhook.
 */
export type InboundAddressType = 'builtin' | 'custom';

export interface InboundAddress {
  readonly fullAddress: string;
  readonly prefix: string;
  readonly domain: string;
  readonly type: InboundAddressType;
  readonly displayName?: string;
  readonly createdAt: string;
}

/** The mailbox reports come back to: the envelope sender of every email, so reports reach the inbound service. */
export const REPORTS_MAILBOX = 'bounces';

/** Prefixes no environment may take: the reports mailbox and the role mailboxes of RFC 2142. */
const RESERVED_PREFIXES: ReadonlySet<string> = new Set([
  REPORTS_MAILBOX,
  'postmaster',
  'abuse',
  'hostmaster',
  'webmaster',
  'mailer-daemon',
]);

/**
 * A prefix leaves room in the 64-octet local part (RFC 5321 4.5.3.1.1) for `+` and a reply token:
 * letters, digits, `.`, `_` and `-`, neither first nor last, lower-cased. `+` is ours.
 */
export const INBOUND_PREFIX_MAX = 24;
export const inboundPrefixSchema = z
  .string()
  .max(64)
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9._-]{0,22}[a-z0-9])?$/, {
    message: `expected 1 to ${INBOUND_PREFIX_MAX} letters, digits, ".", "_" or "-", starting and ending with a letter or digit`,
  })
  .refine((prefix) => !prefix.includes('..'), { message: 'expected no ".." in a prefix' })
  .refine((prefix) => !RESERVED_PREFIXES.has(prefix), { message: 'this prefix is reserved' });

/** A mail domain (auto-join, custom inbound addresses): the one domain-name rule, as DNS holds it. */
export const mailDomainSchema = z.string().max(253).transform(domainOrIssue(domainName));

/** An environment has at most this many inbound addresses. */
export const MAX_INBOUND_ADDRESSES = 20;

/** The key reply tokens are signed with, derived from SECRETS_KEY (every service has it); a KeyObject, as trackingKey's. */
export const replyKey = (secretsKey: Buffer): KeyObject =>
  createSecretKey(Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'notify email reply v1', 32)));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAC_BYTES = 8;
const TOKEN_BYTES = 16 + MAC_BYTES;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower case, unpadded: local parts may be case-folded on the way back. */
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

function fromBase32(text: string): Buffer | undefined {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    const digit = BASE32.indexOf(char);
    if (digit === -1) return undefined;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

const TOKEN_CHARS = Math.ceil((TOKEN_BYTES * 8) / 5);

const replyMac = (key: KeyObject, scope: TenantScope, uuid: Buffer) =>
  createHmac('sha256', key)
    .update(`${scope.accountId}\0${scope.envId}\0`)
    .update(uuid)
    .digest()
    .subarray(0, MAC_BYTES);

/**
 * The Reply-To address of one message: the environment's built-in address with a
 * token after `+` (RFC 5233 subaddress) naming the message, signed for this environment so a
 * token moved to another environment's address names nothing. Undefined for a tracking id that
 * is not a UUID (the service makes every one).
 */
export function replyAddress(
  address: Pick<InboundAddress, 'prefix' | 'domain'>,
  scope: TenantScope,
  trackingId: string,
  key: KeyObject,
): string | undefined {
  if (!UUID.test(trackingId)) return undefined;
  const uuid = Buffer.from(trackingId.replace(/-/g, ''), 'hex');
  const token = base32(Buffer.concat([uuid, replyMac(key, scope, uuid)]));
  return `${address.prefix}+${token}@${address.domain}`;
}

/**
 * A recipient address split into the address it was sent to and, after `+`, its subaddress; both
 * lower-cased. A bare local part (no `@`) stays as it is.
 */
export function splitSubaddress(recipient: string): { address: string; detail?: string } {
  const at = recipient.lastIndexOf('@');
  const local = (at === -1 ? recipient : recipient.slice(0, at)).toLowerCase();
  const domain = at === -1 ? '' : `@${recipient.slice(at + 1).toLowerCase()}`;
  const plus = local.indexOf('+');
  return plus === -1
    ? { address: `${local}${domain}` }
    : { address: `${local.slice(0, plus)}${domain}`, detail: local.slice(plus + 1) };
}

/**
 * Whether a subaddress has the shape of a reply token: such a detail is a reply or nothing (one that
 * fails its check is refused, so mail meant for an address's former owner never reaches a new one).
 */
export const looksLikeReplyToken = (detail: string): boolean =>
  detail.length === TOKEN_CHARS && [...detail].every((char) => BASE32.includes(char));

/**
 * The tracking id a reply token names, when one of these keys (the current one and those rotated
 * out) signed it for this environment.
 */
export function readReplyToken(
  detail: string,
  scope: TenantScope,
  keys: readonly KeyObject[],
): string | undefined {
  if (!looksLikeReplyToken(detail)) return undefined;
  const bytes = fromBase32(detail);
  if (bytes?.length !== TOKEN_BYTES) return undefined;
  const uuid = bytes.subarray(0, 16);
  const given = bytes.subarray(16);
  if (!keys.some((key) => timingSafeEqual(given, replyMac(key, scope, uuid)))) return undefined;
  const hex = uuid.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whose message a reply address names: written by the email sender to the coordination store when
 * it gives a message a reply address, read by the inbound service for the EMAIL_INBOUND payload.
 */
export const emailReplySchema = z.object({ userId: z.string(), notificationId: z.string() });
export type EmailReply = z.infer<typeof emailReplySchema>;

/** How long a reply still names its message's user and type (later ones still match the message). */
export const EMAIL_REPLY_TTL_MS = 30 * 86_400_000;

export const emailReplyKey = (accountId: string, envId: string, trackingId: string) =>
  `email-reply/${accountId}/${envId}/${trackingId}`;

/** A received message as the inbound service read it (bounded: see INBOUND_EMAIL_LIMITS). */
export interface InboundEmail {
  readonly from: string;
  readonly fromName: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
  readonly replyTo: readonly string[];
  readonly subject: string;
  readonly bodyText: string;
  readonly bodyHtml: string;
  readonly attachments: readonly InboundAttachment[];
  readonly messageId: string;
  readonly inReplyTo: string;
  readonly references: readonly string[];
  readonly receivedAt: string;
}

/** Attachments are described, not forwarded: their content stays with the message. */
export interface InboundAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
}

/** What of a message the log and its webhook keep, at most. */
export const INBOUND_EMAIL_LIMITS = {
  bodyChars: 100_000,
  subjectChars: 1_000,
  addresses: 50,
  references: 50,
  attachments: 100,
} as const;

export type InboundResolution = 'reply' | 'builtin' | 'custom';

/** The `email_inbound_*` fields of a message received at `inbox`. */
export function inboundEmailFields(
  mail: InboundEmail,
  inbox: string,
  resolution: InboundResolution,
): LogFields {
  return {
    email_inbound_at: mail.receivedAt,
    email_inbound_from: mail.from,
    email_inbound_from_name: mail.fromName,
    email_inbound_to: mail.to.join(','),
    email_inbound_cc: mail.cc.join(','),
    email_inbound_bcc: mail.bcc.join(','),
    email_inbound_reply_to: mail.replyTo.join(','),
    email_inbound_inbox: inbox,
    email_inbound_subject: mail.subject,
    email_inbound_body_text: mail.bodyText,
    email_inbound_body_html: mail.bodyHtml,
    email_inbound_message_id: mail.messageId,
    email_inbound_in_reply_to: mail.inReplyTo,
    email_inbound_references: mail.references.join(' '),
    email_inbound_has_attachments: mail.attachments.length > 0,
    email_inbound_attachment_count: mail.attachments.length,
    email_inbound_resolution_type: resolution,
  };
}

/**
 * What the EMAIL_INBOUND payload has beyond the log's strings: the lists, whole.
 * Carried on the event as webhook extras.
 */
export const inboundEmailExtras = (mail: InboundEmail) => ({
  to: [...mail.to],
  cc: [...mail.cc],
  replyTo: [...mail.replyTo],
  references: [...mail.references],
  attachments: mail.attachments.map((a) => ({ ...a })),
});
