import { Injectable } from '@nestjs/common';
import { EmailRepliesStore } from '@notify/cache';
import { afterMs, DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  addEmailTracking,
  checkEmail,
  classifySmtpFailure,
  type DeliveryEvent,
  type EmailFailedCode,
  type EmailJob,
  type EmailReply,
  fromDomain,
  isSensitiveSend,
  replyAddress,
  replyKey,
  REPORTS_MAILBOX,
  signTrackingToken,
  trackingKey,
} from '@notify/domain';
import {
  type AppConfig,
  EgressError,
  InjectClock,
  InjectConfig,
  InjectLogger,
  type Logger,
  ThreadLostError,
} from '@notify/platform';
import { SmtpResolver } from '@notify/providers';
import { OnceDelivery, withProviderRetries } from '@notify/sender-common';
import { InboundAddressRepository, UserRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import type { KeyObject } from 'node:crypto';
import type { Address, Attachment as MailAttachment } from 'nodemailer/lib/mailer';
import { AttachmentFetcher } from './attachment-fetcher';
import { RelayPools } from './relay-pools';
import { type DomainSigning, SendingDomainKeys } from './sending-domain-keys';
import { describeSmtpFailure, type SmtpError } from './smtp-failure';
import type { Relay } from './smtp-pools';

/** Permanent refusals that mean the address itself is bad: it is suppressed on the user. */
const SUPPRESSING: ReadonlySet<EmailFailedCode> = new Set([
  'PERMANENT_GENERAL_BOUNCE',
  'PERMANENT_NO_EMAIL_BOUNCE',
  'PERMANENT_SUPPRESSED_BOUNCE',
]);

const iso = (ms: number) => new Date(ms).toISOString();
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Sends one email job over SMTP and records the outcome: `email_sent_*` and `email_delivered_*`
 * once the relay accepted it, or `email_failed_*` with the spec's code. Temporary refusals (4xx,
 * connection trouble) are retried with backoff; permanent ones (5xx) fail once.
 */
@Injectable()
export class SendEmailUseCase {
  /** Signs tracking links (derived from SECRETS_KEY); none without one. */
  private readonly trackingKey: KeyObject | undefined;
  /** Signs reply addresses (derived from SECRETS_KEY); none without one. */
  private readonly replyKey: KeyObject | undefined;

  constructor(
    private readonly pools: RelayPools,
    private readonly attachments: AttachmentFetcher,
    private readonly once: OnceDelivery,
    private readonly events: DeliveryEventsPublisher,
    private readonly relays: SmtpResolver,
    private readonly users: UserRepository,
    private readonly addresses: InboundAddressRepository,
    private readonly replies: EmailRepliesStore,
    private readonly sendingDomains: SendingDomainKeys,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {
    this.trackingKey = config.secrets.key === undefined ? undefined : trackingKey(config.secrets.key);
    this.replyKey = config.secrets.key === undefined ? undefined : replyKey(config.secrets.key);
  }

  execute(job: EmailJob): Promise<void> {
    return this.once.run('EMAIL', job, () => this.deliver(job));
  }

  private async deliver(job: EmailJob): Promise<DeliveryEvent[]> {
    const domain = fromDomain(job.fromAddress);
    const standing = domain === undefined ? undefined : await this.sendingDomains.of(job, domain);
    const problem = checkEmail(job, this.config.email.verifiedDomains, {
      defaultFrom: this.config.email.fromAddress,
      ...(standing !== undefined ? { domainStatus: standing.status } : {}),
    });
    if (problem !== undefined) return [this.failed(job, problem.code, problem.internal)];
    const relay = await this.relayFor(job);
    if (relay === undefined)
      return [this.failed(job, 'UNDETERMINED_BOUNCE', 'no SMTP relay is configured (SMTP_URL)')];
    try {
      return await this.attachments.withAttachments(job.attachments, (files) =>
        this.transmit(job, relay, files, standing?.signing),
      );
    } catch (error) {
      if (!(error instanceof EgressError)) throw error;
      return [
        this.failed(
          job,
          'TRANSIENT_ATTACHMENT_REJECTED_BOUNCE',
          `attachment could not be fetched: ${error.message}`,
        ),
      ];
    }
  }

  /**
   * Signed links to the inbound service for this message (useless for any other): open, click and one-click
   * unsubscribe. None without PUBLIC_URL (nowhere to point them) or SECRETS_KEY (nothing to sign with).
   */
  private tracking(
    job: EmailJob,
  ): { base: string; token: (kind: 'o' | 'c' | 'u', link?: string, tags?: string[]) => string } | undefined {
    const base = this.config.http.publicUrl?.replace(/\/+$/, '');
    if (base === undefined || this.trackingKey === undefined) return undefined;
    const key = this.trackingKey;
    return {
      base,
      token: (kind, link, tags) =>
        signTrackingToken(
          {
            k: kind,
            a: job.accountId,
            e: job.envId,
            t: job.trackingId,
            u: job.userId,
            n: job.notificationId,
            ...(link !== undefined ? { l: link } : {}),
            ...(tags !== undefined && tags.length > 0 ? { g: tags } : {}),
          },
          key,
        ),
    };
  }

  /**
   * Where replies go when the send names no Reply-To: the environment's built-in
   * inbound address with this message's signed token, so the inbound service matches a reply to
   * its trackingId. None until the environment has a built-in address, and none for a sensitive
   * send (a reply quotes its content into the log and the inbound webhook).
   */
  private async replyAddress(job: EmailJob): Promise<Address[]> {
    const { mailDomain } = this.config.inbound;
    if (this.replyKey === undefined || mailDomain === undefined || isSensitiveSend(job)) return [];
    const builtin = await this.addresses.builtin(job);
    if (builtin?.domain !== mailDomain) return [];
    const address = replyAddress(builtin, job, job.trackingId, this.replyKey);
    if (address === undefined) return [];
    const reply: EmailReply = { userId: job.userId, notificationId: job.notificationId };
    await this.replies.remember(job, job.trackingId, reply);
    return [{ name: builtin.displayName ?? job.fromName ?? this.config.email.fromName, address }];
  }

  /** The job's relay (the sandbox peer's for a test environment), else the installation's. */
  private async relayFor(job: EmailJob): Promise<Relay | undefined> {
    return (await this.relays.relayOf(job)) ?? this.pools.defaultRelay;
  }

  /**
   * Hands the email to the relay; temporary refusals are retried with backoff, permanent ones fail
   * once. Mail from a verified sending domain is DKIM-signed with its key (relaxed/relaxed,
   * rsa-sha256: nodemailer's defaults) and bounces to its return path once that is published.
   */
  private async transmit(
    job: EmailJob,
    relay: Relay,
    attachments: MailAttachment[],
    signing: DomainSigning | undefined,
  ): Promise<DeliveryEvent[]> {
    const fromAddress = job.fromAddress ?? this.config.email.fromAddress;
    const messageId = `<${job.trackingId}@${fromAddress.split('@').pop() ?? 'notify.localhost'}>`;
    const tracking = this.tracking(job);
    // A sensitive send's links are its credential: never rewritten (the click log would keep them).
    const content =
      job.html !== undefined && tracking !== undefined && job.track !== false && !isSensitiveSend(job)
        ? addEmailTracking(job.html, tracking.base, tracking.token)
        : job.html;
    const replyTo = job.replyTo.length > 0 ? job.replyTo : await this.replyAddress(job);
    const { mailDomain } = this.config.inbound;
    const envelopeFrom =
      signing?.envelopeFrom ?? (mailDomain !== undefined ? `${REPORTS_MAILBOX}@${mailDomain}` : undefined);
    const html =
      job.previewText === undefined
        ? content
        : `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(job.previewText)}</div>${content ?? ''}`;

    try {
      const sent = await withProviderRetries(
        () =>
          this.pools.send(relay, {
            from: { name: job.fromName ?? this.config.email.fromName, address: fromAddress },
            to: job.to,
            cc: job.cc,
            bcc: job.bcc,
            replyTo,
            subject: job.subject,
            html,
            attachments,
            messageId,
            // Reports about this message (bounces, complaints) go to our inbound domain when there is
            // one, through the sending domain's return path (a CNAME to it) when that is published.
            ...(envelopeFrom !== undefined
              ? {
                  envelope: {
                    from: envelopeFrom,
                    to: [job.to, ...job.cc, ...job.bcc].filter((a): a is string => a !== undefined),
                  },
                }
              : {}),
            ...(signing !== undefined ? { dkim: { ...signing.dkim } } : {}),
            headers: {
              'X-Notify-Tracking-Id': job.trackingId,
              // Quoted back by bounce and complaint reports: which message, signed against forgery.
              ...(this.trackingKey !== undefined
                ? {
                    'X-Notify-Ref': signTrackingToken(
                      {
                        k: 'm',
                        a: job.accountId,
                        e: job.envId,
                        t: job.trackingId,
                        u: job.userId,
                        n: job.notificationId,
                      },
                      this.trackingKey,
                    ),
                  }
                : {}),
              // One-click unsubscribe (RFC 8058) on every email the service can sign links for.
              ...(tracking !== undefined
                ? {
                    'List-Unsubscribe': `<${tracking.base}/t/u/${tracking.token('u')}>`,
                    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
                  }
                : {}),
            },
          }),
        (error) => !(error instanceof ThreadLostError) && this.refusal(error, relay).outcome.retry,
        (error, attempt) =>
          this.logger.warn(
            { trackingId: job.trackingId, attempt, responseCode: (error as SmtpError).responseCode },
            'email refused for now; retrying',
          ),
      );
      return this.accepted(job, sent.messageId ?? messageId, sent.accepted, this.clock.now());
    } catch (error) {
      // Our sending thread was lost, not refused by the relay: the bus redelivers the job.
      if (error instanceof ThreadLostError) throw error;
      const { text, outcome } = this.refusal(error, relay);
      if (SUPPRESSING.has(outcome.code)) await this.suppress(job, outcome.code, text.diagnostic);
      return [this.failed(job, outcome.code, text.internal, text.diagnostic)];
    }
  }

  /** How the relay's refusal reads, and whether it may pass (4xx, connection trouble) or is final. */
  private refusal(error: unknown, relay: Relay) {
    const text = describeSmtpFailure(error, relay.tenant);
    return { text, outcome: classifySmtpFailure((error as SmtpError).responseCode, text.reply) };
  }

  private accepted(
    job: EmailJob,
    messageId: string,
    recipients: readonly string[],
    now: number,
  ): DeliveryEvent[] {
    const after = afterMs(job.receivedAt, now);
    return [
      this.events.event(
        job,
        'email_sent',
        { email_sent_at: iso(now), email_sent_after: after, email_sent_message_id: messageId },
        'email',
        now,
      ),
      this.events.event(
        job,
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

  /**
   * A relay's permanent refusal of the address (a synchronous bounce) suppresses it on the user:
   * later emails to it fail SUPPRESSED_BOUNCE without touching SMTP until the suppression is lifted.
   */
  private async suppress(
    job: EmailJob,
    code: EmailFailedCode,
    diagnostic: string | undefined,
  ): Promise<void> {
    const details = {
      email: job.to ?? '',
      code,
      trackingId: job.trackingId,
      at: iso(this.clock.now()),
      ...(diagnostic !== undefined ? { diagnostic } : {}),
    };
    const stored = await this.users.get(job, job.userId);
    if (stored?.email?.toLowerCase() !== job.to?.toLowerCase()) return;
    await this.users.setEmailSuppression(job, job.userId, { reason: 'Bounce', details });
    this.logger.info(
      { trackingId: job.trackingId, userId: job.userId, code },
      'suppressed a bounced address',
    );
  }

  private failed(job: EmailJob, code: EmailFailedCode, internal: string, diagnostic?: string): DeliveryEvent {
    const now = this.clock.now();
    return this.events.event(
      job,
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
