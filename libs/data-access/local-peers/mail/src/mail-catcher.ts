import { PeerInbox } from '@notify/local-peer-kit';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';

export interface CaughtAttachment {
  readonly filename?: string;
  readonly contentType: string;
  readonly content: Buffer;
}

export interface CaughtMail {
  readonly id: number;
  readonly receivedAt: string;
  /** SMTP envelope: who the relay was asked to deliver to (includes Bcc recipients). */
  readonly envelope: { readonly from: string; readonly to: readonly string[] };
  readonly messageId?: string;
  readonly from?: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly replyTo: readonly string[];
  readonly subject?: string;
  readonly html?: string;
  readonly text?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly attachments: readonly CaughtAttachment[];
  /** The message as it arrived (headers and body, byte for byte), to check signatures against. */
  readonly raw: Buffer;
}

/** A reply the catcher gives instead of accepting (to rehearse bounces and outages). */
export interface Refusal {
  readonly code: number;
  readonly message: string;
}

export interface MailCatcherOptions {
  /** Oldest messages are dropped beyond this many. */
  readonly keep?: number;
  /**
   * Keep one copy per Message-ID, as mailbox providers do (RFC 5322: the id identifies the
   * message). Repeats are acknowledged and counted, not kept. Default true.
   */
  readonly dedupeByMessageId?: boolean;
  /** Refuse a recipient at RCPT TO. */
  readonly refuseRecipient?: (address: string) => Refusal | undefined;
  /** Require SMTP AUTH with these credentials (as a tenant's own relay would); open otherwise. */
  readonly credentials?: { readonly username: string; readonly password: string };
}

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((group) => group.value.map((a) => a.address ?? ''))
    .filter(Boolean);

const smtpError = (refusal: Refusal) =>
  Object.assign(new Error(refusal.message), { responseCode: refusal.code });

/**
 * A real SMTP server on loopback that keeps what it receives, parsed: the mailbox newcomers see
 * with `npm start`, and the peer the email tests assert against. It never relays anything.
 */
export class MailCatcher {
  private readonly inbox: PeerInbox<CaughtMail, number>;
  private readonly seenIds = new Set<string>();
  private repeats = 0;
  private aborted = 0;
  private server: SMTPServer | undefined;
  private nextId = 1;
  private boundPort = 0;

  constructor(private readonly options: MailCatcherOptions = {}) {
    this.inbox = new PeerInbox(options.keep ?? 10_000);
  }

  async start(port = 0, host = '127.0.0.1'): Promise<number> {
    const credentials = this.options.credentials;
    const server = new SMTPServer({
      authOptional: credentials === undefined,
      // Plain-text AUTH on loopback only: this is a local peer, never a relay on a network.
      allowInsecureAuth: credentials !== undefined,
      onAuth: (auth, _session, callback) => {
        const ok = auth.username === credentials?.username && auth.password === credentials?.password;
        callback(
          ok ? null : smtpError({ code: 535, message: '5.7.8 Authentication credentials invalid' }),
          ok ? { user: auth.username } : undefined,
        );
      },
      disabledCommands: ['STARTTLS'],
      size: 64 * 1024 * 1024,
      logger: false,
      onRcptTo: (
        address: SMTPServerAddress,
        _session: SMTPServerSession,
        callback: (error?: Error) => void,
      ) => {
        const refusal = this.options.refuseRecipient?.(address.address);
        callback(refusal === undefined ? undefined : smtpError(refusal));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        new Promise<Buffer>((resolve, reject) => {
          stream.once('end', () => resolve(Buffer.concat(chunks)));
          stream.once('error', reject);
        })
          .then(async (raw) => ({ raw, parsed: await simpleParser(raw) }))
          .then(({ raw, parsed }) => {
            this.keep({
              id: this.nextId++,
              receivedAt: new Date().toISOString(),
              envelope: {
                from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              messageId: parsed.messageId,
              from: parsed.from?.value[0]?.address,
              to: addresses(parsed.to),
              cc: addresses(parsed.cc),
              replyTo: addresses(parsed.replyTo),
              subject: parsed.subject,
              html: typeof parsed.html === 'string' ? parsed.html : undefined,
              text: parsed.text,
              // Every header as it was written (unfolded): mailparser's structured values drop some,
              // such as List-Unsubscribe-Post, which it folds into `list`.
              headers: Object.fromEntries(
                parsed.headerLines.map(({ key, line }) => [
                  key,
                  line
                    .slice(line.indexOf(':') + 1)
                    .replace(/\r?\n[ \t]+/g, ' ')
                    .trim(),
                ]),
              ),
              attachments: parsed.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: a.content,
              })),
              raw,
            });
            callback();
          })
          .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // smtp-server reports a client that vanished mid-transaction (a sender killed or restarted) as
    // a server error; for a mailbox that is an aborted transaction, not a reason to stop.
    server.on('error', () => {
      this.aborted++;
    });
    const address = server.server.address();
    this.boundPort = typeof address === 'object' && address !== null ? address.port : port;
    this.server = server;
    return this.boundPort;
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.boundPort}`;
  }

  messages(): readonly CaughtMail[] {
    return this.inbox.messages();
  }

  /** SMTP transactions a client broke off after MAIL FROM (its connection reset or failed). */
  get abortedTransactions(): number {
    return this.aborted;
  }

  /** SMTP transactions that repeated a Message-ID already in the mailbox. */
  get repeatedDeliveries(): number {
    return this.repeats;
  }

  clear(): void {
    this.inbox.clear();
    this.seenIds.clear();
    this.repeats = 0;
    this.aborted = 0;
  }

  /** Removes the given messages (one tenant emptying its part of the mailbox). */
  remove(ids: readonly number[]): void {
    this.inbox.remove(ids);
  }

  onMessage(listener: (mail: CaughtMail) => void): () => void {
    return this.inbox.onMessage(listener);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private keep(mail: CaughtMail): void {
    if (this.options.dedupeByMessageId !== false && mail.messageId !== undefined) {
      if (this.seenIds.has(mail.messageId)) {
        this.repeats++;
        return;
      }
      this.seenIds.add(mail.messageId);
    }
    this.inbox.add(mail);
  }
}

/** The largest message whose source the outbox shows (`raw`); larger ones are shown without it. */
export const RAW_VIEW_MAX_BYTES = 256 * 1024;

/**
 * A caught message as `GET /dev/outbox/email` shows it: as /dev/mail does, plus `replyTo`, headers,
 * the envelope sender (`returnPath`, where bounces go) and the source, byte for byte in base64
 * (`rawBase64`, up to RAW_VIEW_MAX_BYTES), to check a DKIM signature against. Base64 keeps the
 * encoded source (quoted-printable links, say) from reading as the message's text.
 */
export const mailOutboxView = (mail: CaughtMail) => ({
  id: String(mail.id),
  receivedAt: mail.receivedAt,
  trackingId: mail.headers['x-notify-tracking-id'],
  from: mail.from,
  to: mail.to,
  cc: mail.cc,
  bcc: mail.envelope.to.filter((address) => !mail.to.includes(address) && !mail.cc.includes(address)),
  replyTo: mail.replyTo,
  subject: mail.subject,
  html: mail.html,
  attachments: mail.attachments.map((a) => ({
    filename: a.filename,
    contentType: a.contentType,
    size: a.content.length,
  })),
  headers: mail.headers,
  returnPath: mail.envelope.from,
  ...(mail.raw.length <= RAW_VIEW_MAX_BYTES ? { rawBase64: mail.raw.toString('base64') } : {}),
});
