import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type InboundEmail, readMailReport, reportPartsOf } from '@notify/domain';
import { type AppConfig, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { Readable } from 'node:stream';
import { InboundEmailUseCase, type Recipient } from './inbound-email.usecase';
import { MailReportsUseCase } from './mail-reports.usecase';
import { readInboundEmail } from './read-inbound-email';

/** Anything larger is refused at the door (552). */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Recipients per message (each is looked up) and connections at once; beyond them, 452 and 421. */
const MAX_RECIPIENTS = 100;
const MAX_CLIENTS = 200;

const smtpError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/**
 * The inbound service's SMTP listener (INBOUND_SMTP_PORT): takes delivery reports (DSN) and
 * complaints (ARF) about our messages, and mail to the environments' inbound addresses (replies
 * among it). Recipients that are neither are refused (550). A malformed message is accepted,
 * logged and ignored: a sender must never learn to retry it, and nothing it contains can stop the
 * listener. When the message cannot be recorded (the bus is down), the answer is 451 so the
 * sending server keeps it and tries again.
 */
@Injectable()
export class InboundMailListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: SMTPServer;
  /** What each accepted recipient was found to be at RCPT TO (smtp-server keeps that object in the envelope). */
  private readonly recipients = new WeakMap<SMTPServerAddress, Recipient>();

  constructor(
    private readonly reports: MailReportsUseCase,
    private readonly inboundEmail: InboundEmailUseCase,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.inbound.smtpPort;
    if (port === undefined) return;
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: MAX_MESSAGE_BYTES,
      maxRecipients: MAX_RECIPIENTS,
      maxClients: MAX_CLIENTS,
      socketTimeout: 60_000,
      logger: false,
      banner: 'notify inbound',
      onRcptTo: (address, _session, callback) => {
        this.inboundEmail.recipient(address.address).then(
          (recipient) => {
            if (recipient !== undefined) this.recipients.set(address, recipient);
            callback(recipient !== undefined ? undefined : smtpError(550, '5.1.1 No such mailbox here'));
          },
          (error: unknown) => {
            this.logger.warn({ err: error }, 'could not look up an inbound recipient');
            callback(smtpError(451, '4.3.0 Try again later'));
          },
        );
      },
      onData: (stream, session, callback) => {
        this.receive(stream, session.envelope.rcptTo).then(
          () =>
            callback(
              (stream as Readable & { sizeExceeded?: boolean }).sizeExceeded
                ? smtpError(552, '5.3.4 Message too big')
                : undefined,
            ),
          (error: unknown) => {
            this.logger.warn({ err: error }, 'could not record an inbound message; the sender will retry');
            callback(smtpError(451, '4.3.0 Try again later'));
          },
        );
      },
    });
    this.server.on('error', (error) => this.logger.warn({ err: error }, 'inbound SMTP error'));
    await new Promise<void>((resolve) => this.server?.listen(port, this.config.http.host, resolve));
    this.logger.info({ port, mailDomain: this.config.inbound.mailDomain }, 'inbound SMTP listener started');
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server === undefined ? resolve() : this.server.close(() => resolve()),
    );
  }

  private async receive(stream: Readable, envelope: readonly SMTPServerAddress[]): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      // Past the limit the rest is drained, not kept (smtp-server answers 552).
      if (size <= MAX_MESSAGE_BYTES) chunks.push(chunk as Buffer);
    }
    if ((stream as Readable & { sizeExceeded?: boolean }).sizeExceeded) return;
    const raw = Buffer.concat(chunks);
    // A report counts only when it came to the reports mailbox: a customer's inbound address gets
    // whatever is sent to it, reports included.
    const report = this.inboundEmail.takesReports(envelope.map((r) => r.address))
      ? readMailReport(reportPartsOf(raw.toString('utf8')))
      : undefined;
    if (report !== undefined && (await this.reports.handle(report))) return;
    let mail: InboundEmail;
    try {
      mail = await readInboundEmail(raw, new Date().toISOString());
    } catch (error) {
      this.logger.info({ err: error }, 'ignored an inbound message that could not be parsed');
      return;
    }
    const recipients = envelope.flatMap((r) => this.recipients.get(r) ?? []);
    const recorded = await this.inboundEmail.receive(mail, recipients);
    if (recorded === 0) this.logger.info('ignored an inbound message for no inbound address');
  }
}
