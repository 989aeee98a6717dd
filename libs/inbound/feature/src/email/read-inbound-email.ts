import { INBOUND_EMAIL_LIMITS, type InboundEmail } from '@notify/domain';
import {
  type AddressObject,
  type AttachmentStream,
  type EmailAddress,
  type Headers,
  MailParser,
  type MessageText,
} from 'mailparser';
import { once } from 'node:events';

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

/** What a message's parse produced, read as the parser gives it out. */
interface Parsed {
  headers?: Headers;
  text?: string;
  html?: string;
  readonly attachments: { filename: string; contentType: string; size: number }[];
}

/**
 * Reads one message as it arrives: `write` each chunk (it resolves when the parser can take more),
 * then `end` for the message. Attachments are counted, never kept: what stays in memory is the
 * headers and the text and HTML parts.
 */
export class InboundEmailReader {
  private readonly parser = new MailParser({
    skipHtmlToText: true,
    skipImageLinks: true,
    skipTextToHtml: true,
    skipTextLinks: true,
  });
  private readonly parsed: Parsed = { attachments: [] };
  private readonly done: Promise<void>;
  private failure: unknown;

  constructor() {
    this.done = new Promise<void>((resolve) => {
      this.parser.on('headers', (headers: Headers) => (this.parsed.headers = headers));
      this.parser.on('data', (data: AttachmentStream | MessageText) => this.take(data));
      this.parser.on('end', resolve);
      // Destroyed (abort) it emits neither: a writer waiting for room must not wait forever.
      this.parser.on('close', resolve);
      this.parser.on('error', (error: unknown) => {
        this.failure ??= error;
        resolve();
      });
    });
  }

  /** Resolves once the parser has room for more (at once after a parse error: the rest is ignored). */
  async write(chunk: Buffer): Promise<void> {
    if (this.failure !== undefined || this.parser.write(chunk)) return;
    await Promise.race([once(this.parser, 'drain'), this.done]);
  }

  /** The message read, or an error when nothing could be read from it. */
  async end(receivedAt: string): Promise<InboundEmail> {
    if (this.failure === undefined) this.parser.end();
    await this.done;
    if (this.failure !== undefined) throw this.failure;
    return inboundEmailOf(this.parsed, receivedAt);
  }

  /** Lets go of the message (refused part-way): the parser stops and keeps nothing. */
  abort(): void {
    this.failure ??= new Error('the message was not read to its end');
    this.parser.destroy();
  }

  private take(data: AttachmentStream | MessageText): void {
    if (data.type === 'text') {
      if (typeof data.text === 'string') this.parsed.text = data.text;
      if (typeof data.html === 'string') this.parsed.html = data.html;
      return;
    }
    const attachment = {
      filename: clip(data.filename, 255),
      contentType: clip(data.contentType, 255),
      size: 0,
    };
    if (this.parsed.attachments.length < INBOUND_EMAIL_LIMITS.attachments)
      this.parsed.attachments.push(attachment);
    data.content.on('data', (chunk: Buffer) => (attachment.size += chunk.length));
    data.content.on('end', () => data.release());
  }
}

/** A whole message at once (it is read as a stream all the same). */
export async function readInboundEmail(raw: Buffer, receivedAt: string): Promise<InboundEmail> {
  const reader = new InboundEmailReader();
  await reader.write(raw);
  return reader.end(receivedAt);
}

const header = <T>(headers: Headers | undefined, name: string) => headers?.get(name) as T | undefined;

/**
 * A received message as the log and its webhook keep it (the EMAIL_INBOUND payload in
 * docs/api-behaviour.md): addresses, subject, both bodies and a description of each attachment,
 * all bounded (INBOUND_EMAIL_LIMITS). The text body is
 * the message's text part (empty when it has none: HTML is not converted, so no size of HTML costs
 * more than reading it). Whatever the message holds, this returns: malformed parts come back empty.
 */
function inboundEmailOf(parsed: Parsed, receivedAt: string): InboundEmail {
  const { headers } = parsed;
  const sender = flatten(header<AddressObject>(headers, 'from')?.value ?? [])[0];
  const references = header<string | string[]>(headers, 'references');
  const subject = header<unknown>(headers, 'subject');
  const text = (name: string) => {
    const value = header<unknown>(headers, name);
    return typeof value === 'string' ? value : undefined;
  };
  return {
    from: clip(sender?.address, MAX_ADDRESS),
    fromName: clip(sender?.name, MAX_NAME),
    to: listOf(header(headers, 'to')),
    cc: listOf(header(headers, 'cc')),
    bcc: listOf(header(headers, 'bcc')),
    replyTo: listOf(header(headers, 'reply-to')),
    subject: clip(typeof subject === 'string' ? subject : undefined, INBOUND_EMAIL_LIMITS.subjectChars),
    // A text part ends with the line break that closed it: no part of what was written.
    bodyText: clip(parsed.text?.trimEnd(), INBOUND_EMAIL_LIMITS.bodyChars),
    bodyHtml: clip(parsed.html, INBOUND_EMAIL_LIMITS.bodyChars),
    attachments: parsed.attachments,
    messageId: clip(text('message-id'), 1_000),
    inReplyTo: clip(text('in-reply-to'), 1_000),
    references: (Array.isArray(references) ? references : references !== undefined ? [references] : [])
      .slice(0, INBOUND_EMAIL_LIMITS.references)
      .map((r) => clip(String(r), 1_000)),
    receivedAt,
  };
}
