import { Injectable } from '@nestjs/common';
import { afterMs, DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type Attachment,
  checkEmail,
  classifySmtpFailure,
  type DeliveryEvent,
  type EmailFailedCode,
  type EmailJob,
  MAX_URL_ATTACHMENT_BYTES,
} from '@notify/domain';
import { type AppConfig, InjectConfig, InjectLogger, type Logger, safeFetch } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import type { Attachment as MailAttachment } from 'nodemailer/lib/mailer';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeliveryLedger } from './delivery-ledger';
import { SmtpTransports } from './smtp.transports';

/** Delays before the 2nd, 3rd and 4th attempt of a temporarily refused email. */
const RETRY_DELAYS_MS = [1_000, 4_000, 10_000];

const iso = (ms: number) => new Date(ms).toISOString();
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface SmtpError {
  readonly responseCode?: number;
  readonly response?: string;
  readonly message?: string;
}

/**
 * Sends one email job over SMTP and records the outcome: `email_sent_*` and `email_delivered_*`
 * once the relay accepted it, or `email_failed_*` with the spec's code. Temporary refusals (4xx,
 * connection trouble) are retried with backoff; permanent ones (5xx) fail once.
 */
@Injectable()
export class SendEmailUseCase {
  constructor(
    private readonly transports: SmtpTransports,
    private readonly ledger: DeliveryLedger,
    private readonly events: DeliveryEventsPublisher,
    private readonly accounts: AccountRepository,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async execute(job: EmailJob): Promise<void> {
    const key = `delivery/email/${job.accountId}/${job.envId}/${job.trackingId}`;
    const claim = await this.ledger.claim(key);
    if (claim.kind === 'done') {
      await this.events.publish(...claim.events);
      return;
    }
    let outcome: DeliveryEvent[];
    try {
      outcome = await this.deliver(job);
    } catch (error) {
      await this.ledger.release(key);
      throw error;
    }
    await this.ledger.finish(key, outcome);
    await this.events.publish(...outcome);
  }

  private async deliver(job: EmailJob): Promise<DeliveryEvent[]> {
    const problem = checkEmail(job, this.config.email.verifiedDomains);
    if (problem !== undefined) return [this.failed(job, problem.code, problem.internal)];
    if (job.test) return this.accepted(job, `<${job.trackingId}@sandbox>`, [job.to ?? ''], Date.now());

    let attachments: MailAttachment[];
    try {
      attachments = await Promise.all(job.attachments.map((a) => this.attachment(a)));
    } catch (error) {
      return [
        this.failed(
          job,
          'TRANSIENT_ATTACHMENT_REJECTED_BOUNCE',
          `attachment could not be fetched: ${(error as Error).message}`,
        ),
      ];
    }
    const environment = await this.accounts.getEnvironment(job.accountId, job.envId);
    const relay = environment?.smtpUrl ?? this.config.email.smtpUrl;
    if (relay === undefined)
      return [this.failed(job, 'UNDETERMINED_BOUNCE', 'no SMTP relay is configured (SMTP_URL)')];
    const fromAddress = job.fromAddress ?? this.config.email.fromAddress;
    const messageId = `<${job.trackingId}@${fromAddress.split('@').pop() ?? 'notify.localhost'}>`;
    const html =
      job.previewText === undefined
        ? job.html
        : `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(job.previewText)}</div>${job.html ?? ''}`;

    for (let attempt = 0; ; attempt++) {
      try {
        const info = (await this.transports.for(relay).sendMail({
          from: { name: job.fromName ?? this.config.email.fromName, address: fromAddress },
          to: job.to,
          cc: job.cc,
          bcc: job.bcc,
          replyTo: job.replyTo,
          subject: job.subject,
          html,
          attachments,
          messageId,
          headers: { 'X-Notify-Tracking-Id': job.trackingId },
        })) as { messageId?: string; accepted?: (string | { address: string })[] };
        const accepted = (info.accepted ?? []).map((a) => (typeof a === 'string' ? a : a.address));
        return this.accepted(job, info.messageId ?? messageId, accepted, Date.now());
      } catch (error) {
        const smtp = error as SmtpError;
        const reply = smtp.response ?? smtp.message ?? String(error);
        const outcome = classifySmtpFailure(smtp.responseCode, reply);
        const delay = RETRY_DELAYS_MS[attempt];
        if (!outcome.retry || delay === undefined)
          return [this.failed(job, outcome.code, `SMTP: ${reply}`, reply)];
        this.logger.warn(
          { trackingId: job.trackingId, attempt: attempt + 1, responseCode: smtp.responseCode },
          'email refused for now; retrying',
        );
        await sleep(delay);
      }
    }
  }

  private async attachment(attachment: Attachment): Promise<MailAttachment> {
    if (attachment.content !== undefined) {
      return {
        filename: attachment.filename,
        content: Buffer.from(attachment.content, 'base64'),
        contentType: attachment.contentType,
      };
    }
    const fetched = await safeFetch(attachment.url ?? '', {
      maxBytes: MAX_URL_ATTACHMENT_BYTES,
      allowPrivateNetworks: this.config.egress.allowPrivateNetworks,
    });
    return {
      filename: attachment.filename,
      content: fetched.content,
      contentType: attachment.contentType ?? fetched.contentType,
    };
  }

  private accepted(
    job: EmailJob,
    messageId: string,
    recipients: readonly string[],
    now: number,
  ): DeliveryEvent[] {
    const subject = { accountId: job.accountId, envId: job.envId, trackingId: job.trackingId };
    const after = afterMs(job.receivedAt, now);
    return [
      this.events.event(
        subject,
        'email_sent',
        { email_sent_at: iso(now), email_sent_after: after, email_sent_message_id: messageId },
        'email',
        now,
      ),
      this.events.event(
        subject,
        'email_delivered',
        {
          email_delivered_at: iso(now),
          email_delivered_after: after,
          email_delivered_recipients: recipients.join(','),
        },
        'email',
        now,
      ),
    ];
  }

  private failed(job: EmailJob, code: EmailFailedCode, internal: string, diagnostic?: string): DeliveryEvent {
    const now = Date.now();
    return this.events.event(
      { accountId: job.accountId, envId: job.envId, trackingId: job.trackingId },
      'email_failed',
      {
        email_failed_at: iso(now),
        email_failed_code: code,
        email_failed_internal: internal,
        ...(job.to !== undefined ? { email_failed_recipient: job.to } : {}),
        ...(diagnostic !== undefined ? { email_failed_diagnostic_code: diagnostic.slice(0, 1_000) } : {}),
      },
      'email',
      now,
    );
  }
}
