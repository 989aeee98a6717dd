import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type InboundEmail, readMailReport, reportPartsOf } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import type { Clock } from '@notify/util';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream } from 'smtp-server';
import { InboundEmailUseCase, type Recipient } from './inbound-email.usecase';
import { MailReportsUseCase } from './mail-reports.usecase';
import { InboundEmailReader } from './read-inbound-email';
import { ByteBudget, type ByteLease, ClientAdmission, clientKey } from './smtp-admission';

/** Anything larger is refused (552). */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** What a report is read from: its first part (reports put the machine-readable parts first). */
const MAX_REPORT_BYTES = 1024 * 1024;
/** Recipients per message (each is looked up) and connections at once; beyond them, 452 and 421. */
const MAX_RECIPIENTS = 100;
const MAX_CLIENTS = 200;

const smtpError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/** How reading a message ended: kept, too big for any listener (552), or too big for now (452). */
type Received = 'kept' | 'too-big' | 'over-budget';

/**
 * The inbound service's SMTP listener (INBOUND_SMTP_PORT): takes delivery reports (DSN) and
 * complaints (ARF) about our messages, and mail to the environments' inbound addresses (replies
 * among it). Recipients that are neither are refused (550). A malformed message is accepted,
 * logged and ignored: a sender must never learn to retry it, and nothing it contains can stop the
 * listener. When the message cannot be recorded (the bus is down), the answer is 451 so the
 * sending server keeps it and tries again.
 *
 * Memory is bounded whatever the senders do: a message is parsed as it arrives (attachments
 * counted, not kept) under one byte budget for all connections (INBOUND_SMTP_MEMORY_MB), and
 * each client address has a number of connections (INBOUND_SMTP_CONNECTIONS_PER_CLIENT) and of
 * messages a minute (INBOUND_SMTP_MESSAGES_PER_MINUTE). Past any of them the answer is temporary
 * (421 for a connection, 451 for a message, 452 past the budget): a real server tries again later.
 */
@Injectable()
export class InboundMailListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: SMTPServer;
  /** What each accepted recipient was found to be at RCPT TO (smtp-server keeps that object in the envelope). */
  private readonly recipients = new WeakMap<SMTPServerAddress, Recipient>();
  private readonly budget: ByteBudget;
  /** Each session's lease on the budget, from MAIL FROM to the end of its message. */
  private readonly leases = new Map<string, ByteLease>();
  private readonly admission: ClientAdmission;

  constructor(
    private readonly reports: MailReportsUseCase,
    private readonly inboundEmail: InboundEmailUseCase,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {
    // One client holds at most a quarter of the budget, and never less than one message of the
    // largest size (when the whole budget allows it).
    const budget = config.inbound.smtpMemoryBytes;
    this.budget = new ByteBudget(budget, Math.min(budget, Math.max(budget / 4, MAX_MESSAGE_BYTES)));
    this.admission = new ClientAdmission(
      config.inbound.smtpConnectionsPerClient,
      config.inbound.smtpMessagesPerMinute,
    );
  }

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
      onConnect: (session, callback) =>
        callback(
          this.admission.connect(session.id, clientKey(session.remoteAddress))
            ? undefined
            : smtpError(421, '4.7.0 Too many connections from your address, try again later'),
        ),
      onClose: (session) => {
        this.admission.closed(session.id);
        this.endLease(session.id);
      },
      onMailFrom: (address, session, callback) => {
        const client = clientKey(session.remoteAddress);
        if (!this.admission.message(client, this.clock.now()))
          return callback(smtpError(451, '4.7.1 Too many messages from your address, try again later'));
        this.endLease(session.id);
        // smtp-server has checked SIZE: digits, and no more than the limit (552 otherwise).
        const lease = this.budget.lease(client, Number((address.args as { SIZE?: string }).SIZE ?? 0));
        if (lease === undefined)
          return callback(smtpError(452, '4.3.1 Insufficient system storage, try again later'));
        this.leases.set(session.id, lease);
        callback();
      },
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
        // The message holds the session's lease from here until it is recorded or refused.
        const lease = this.leases.get(session.id);
        this.leases.delete(session.id);
        this.receive(stream, session.envelope.rcptTo, session.remoteAddress, lease)
          .finally(() => lease?.release())
          .then(
            (received) =>
              callback(
                received === 'too-big'
                  ? smtpError(552, '5.3.4 Message too big')
                  : received === 'over-budget'
                    ? smtpError(452, '4.3.1 Insufficient system storage, try again later')
                    : undefined,
              ),
            (error: unknown) => {
              this.logger.warn({ err: error }, 'could not record an inbound message; the sender will retry');
              callback(smtpError(451, '4.3.0 Try again later'));
            },
          );
      },
    });
    const server = this.server;
    // A port that cannot be bound fails the start (the process exits with the reason) instead of
    // leaving a service that never listens; later errors are logged.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.http.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.logger.warn({ err: error }, 'inbound SMTP error'));
    this.logger.info({ port, mailDomain: this.config.inbound.mailDomain }, 'inbound SMTP listener started');
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server === undefined ? resolve() : this.server.close(() => resolve()),
    );
  }

  /**
   * Reads the message into the parser as it arrives, each chunk counted on the message's lease
   * first; past the size limit or the budget the rest is drained, not kept.
   */
  private async receive(
    stream: SMTPServerDataStream,
    envelope: readonly SMTPServerAddress[],
    client: string,
    lease: ByteLease | undefined,
  ): Promise<Received> {
    // A report counts only when it came to the reports mailbox: a customer's inbound address gets
    // whatever is sent to it, reports included.
    const takesReports = this.inboundEmail.takesReports(envelope.map((r) => r.address));
    const reader = new InboundEmailReader();
    const report: Buffer[] = [];
    let reportBytes = 0;
    let received: Received = 'kept';
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (received !== 'kept') continue;
      if (stream.sizeExceeded) received = 'too-big';
      else if (lease?.take(chunk.length) !== true) received = 'over-budget';
      if (received !== 'kept') {
        reader.abort();
        continue;
      }
      if (takesReports && reportBytes < MAX_REPORT_BYTES) {
        const kept = chunk.subarray(0, MAX_REPORT_BYTES - reportBytes);
        report.push(kept);
        reportBytes += kept.length;
      }
      await reader.write(chunk);
    }
    if (received === 'kept' && stream.sizeExceeded) {
      received = 'too-big';
      reader.abort();
    }
    if (received === 'over-budget')
      this.logger.warn(
        { budgetBytes: this.budget.total },
        'inbound mail over its memory budget; answered 452',
      );
    if (received !== 'kept') return received;
    await this.record(reader, report, envelope, client);
    return received;
  }

  /** Gives back the lease a session took at MAIL FROM and has not used for a message. */
  private endLease(sessionId: string): void {
    this.leases.get(sessionId)?.release();
    this.leases.delete(sessionId);
  }

  private async record(
    reader: InboundEmailReader,
    report: readonly Buffer[],
    envelope: readonly SMTPServerAddress[],
    client: string,
  ): Promise<void> {
    let mail: InboundEmail | undefined;
    try {
      mail = await reader.end(new Date().toISOString());
    } catch (error) {
      this.logger.info({ err: error }, 'could not parse an inbound message');
    }
    const parsedReport =
      report.length === 0 ? undefined : readMailReport(reportPartsOf(Buffer.concat(report).toString('utf8')));
    if (parsedReport !== undefined && (await this.reports.handle(parsedReport, client))) return;
    if (mail === undefined) {
      this.logger.info('ignored an inbound message that could not be parsed');
      return;
    }
    const recipients = envelope.flatMap((r) => this.recipients.get(r) ?? []);
    const recorded = await this.inboundEmail.receive(mail, recipients);
    if (recorded === 0) this.logger.info('ignored an inbound message for no inbound address');
  }
}
