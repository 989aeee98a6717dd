import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { readMailReport, reportPartsOf } from '@notify/domain';
import { type AppConfig, InjectConfig, InjectLogger, type Logger } from '@notify/platform';
import { SMTPServer } from 'smtp-server';
import type { Readable } from 'node:stream';
import { MailReportsUseCase } from './mail-reports.usecase';

/** A report is small; anything larger is refused at the door (552). */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The inbound service's SMTP listener (INBOUND_SMTP_PORT): takes delivery reports (DSN) and
 * complaints (ARF) for our messages, for the domain INBOUND_MAIL_DOMAIN when set. A message that
 * is no report, or a malformed one, is accepted, logged and ignored: a sender must never learn to
 * retry it, and nothing it contains can stop the listener.
 */
@Injectable()
export class InboundMailListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: SMTPServer;

  constructor(
    private readonly reports: MailReportsUseCase,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.inbound.smtpPort;
    if (port === undefined) return;
    const domain = this.config.inbound.mailDomain?.toLowerCase();
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: MAX_MESSAGE_BYTES,
      logger: false,
      banner: 'notify inbound',
      onRcptTo: (address, _session, callback) => {
        const ours = domain === undefined || address.address.toLowerCase().endsWith(`@${domain}`);
        callback(
          ours ? undefined : Object.assign(new Error('5.1.1 No such mailbox here'), { responseCode: 550 }),
        );
      },
      onData: (stream, _session, callback) => {
        this.receive(stream).then(
          () =>
            callback(
              (stream as Readable & { sizeExceeded?: boolean }).sizeExceeded
                ? Object.assign(new Error('5.3.4 Message too big'), { responseCode: 552 })
                : undefined,
            ),
          (error: unknown) => {
            this.logger.warn({ err: error }, 'could not read an inbound message; ignored');
            callback();
          },
        );
      },
    });
    this.server.on('error', (error) => this.logger.warn({ err: error }, 'inbound SMTP error'));
    await new Promise<void>((resolve) => this.server?.listen(port, this.config.http.host, resolve));
    this.logger.info({ port }, 'inbound SMTP listener started');
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server === undefined ? resolve() : this.server.close(() => resolve()),
    );
  }

  private async receive(stream: Readable): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      // Past the limit the rest is drained, not kept (smtp-server answers 552).
      if (size <= MAX_MESSAGE_BYTES) chunks.push(chunk as Buffer);
    }
    if ((stream as Readable & { sizeExceeded?: boolean }).sizeExceeded) return;
    const report = readMailReport(reportPartsOf(Buffer.concat(chunks).toString('utf8')));
    if (report === undefined) {
      this.logger.info('ignored an inbound message that is no report');
      return;
    }
    await this.reports.handle(report);
  }
}
