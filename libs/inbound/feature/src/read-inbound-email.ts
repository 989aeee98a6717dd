import { INBOUND_EMAIL_LIMITS, type InboundEmail } from '@notify/domain';
import { type AddressObject, type EmailAddress, simpleParser } from 'mailparser';

/** An address as long as RFC 5321 allows (64 + 1 + 255), names as long as a header line sensibly is. */
const MAX_ADDRESS = 320;
const MAX_NAME = 200;

const clip = (text: string | undefined, max: number) => (text ?? '').slice(0, max);

function flatten(addresses: readonly EmailAddress[]): EmailAddress[] {
  return addresses.flatMap((a) => (a.group !== undefined ? flatten(a.group) : [a]));
}

const listOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  flatten((Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value))
    .map((a) => clip(a.address, MAX_ADDRESS))
    .filter((address) => address.length > 0)
    .slice(0, INBOUND_EMAIL_LIMITS.addresses);

/**
 * A received message as the log and its webhook keep it (decisions 7): addresses, subject, both
 * bodies and a description of each attachment, all bounded (INBOUND_EMAIL_LIMITS). The text body is
 * the message's text part (empty when it has none: HTML is not converted, so no size of HTML costs
 * more than reading it). Whatever the message holds, this returns: malformed parts come back empty.
 */
export async function readInboundEmail(raw: Buffer, receivedAt: string): Promise<InboundEmail> {
  const parsed = await simpleParser(raw, {
    skipHtmlToText: true,
    skipImageLinks: true,
    skipTextToHtml: true,
    skipTextLinks: true,
  });
  const sender = flatten(parsed.from?.value ?? [])[0];
  const references = parsed.references;
  return {
    from: clip(sender?.address, MAX_ADDRESS),
    fromName: clip(sender?.name, MAX_NAME),
    to: listOf(parsed.to),
    cc: listOf(parsed.cc),
    bcc: listOf(parsed.bcc),
    replyTo: listOf(parsed.replyTo),
    subject: clip(parsed.subject, INBOUND_EMAIL_LIMITS.subjectChars),
    // A text part ends with the line break that closed it: no part of what was written.
    bodyText: clip(parsed.text?.trimEnd(), INBOUND_EMAIL_LIMITS.bodyChars),
    bodyHtml: clip(typeof parsed.html === 'string' ? parsed.html : '', INBOUND_EMAIL_LIMITS.bodyChars),
    attachments: parsed.attachments.slice(0, INBOUND_EMAIL_LIMITS.attachments).map((a) => ({
      filename: clip(a.filename, 255),
      contentType: clip(a.contentType, 255),
      size: a.size,
    })),
    messageId: clip(parsed.messageId, 1_000),
    inReplyTo: clip(parsed.inReplyTo, 1_000),
    references: (Array.isArray(references) ? references : references !== undefined ? [references] : [])
      .slice(0, INBOUND_EMAIL_LIMITS.references)
      .map((r) => clip(r, 1_000)),
    receivedAt,
  };
}
