import { Injectable } from '@nestjs/common';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import type { MailReport } from '@notify/domain';
import {
  addressMatcher,
  type AppConfig,
  InjectClock,
  InjectConfig,
  InjectLogger,
  type Logger,
} from '@notify/platform';
import type { Clock } from '@notify/util';
import { UserRepository } from '@notify/store';
import { TrackingTokens } from './tracking-tokens';

/**
 * Acts on a bounce or complaint report about one of our messages: the message's log
 * gets `email_failed_*` with the spec's code (forwarded as EMAIL_FAILED), and a permanent bounce
 * or any complaint suppresses the user's address (`emailSuppressionStatus`), so later emails to it
 * fail SUPPRESSED_BOUNCE / SUPPRESSED_COMPLAINT without touching SMTP. A report that names no
 * message of ours (no valid X-Notify-Ref) is logged and ignored. Anyone can write a complaint that
 * quotes a reference, and its From header too, so a complaint counts only when the mail server that
 * delivered it (the SMTP client's address, which TCP does not let a sender choose) is a configured
 * feedback loop (FEEDBACK_LOOP_SOURCES: IP addresses or networks).
 */
@Injectable()
export class MailReportsUseCase {
  private readonly fromFeedbackLoop: (address: string) => boolean;

  constructor(
    private readonly events: DeliveryEventsPublisher,
    private readonly users: UserRepository,
    private readonly tokens: TrackingTokens,
    @InjectConfig() config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {
    this.fromFeedbackLoop = addressMatcher(config.inbound.feedbackLoopSources);
  }

  /**
   * Acts on a report delivered by the mail server at `reporter` (the SMTP client's IP address);
   * false when it names no message of ours.
   */
  async handle(report: MailReport, reporter: string): Promise<boolean> {
    if (report.kind === 'complaint' && !this.fromFeedbackLoop(reporter)) {
      this.logger.info({ reporter }, 'ignored a complaint from a source not in FEEDBACK_LOOP_SOURCES');
      return true;
    }
    const message = report.ref === undefined ? undefined : this.tokens.read(report.ref, 'm');
    if (message === undefined) {
      this.logger.info({ kind: report.kind }, 'ignored a mail report that names no message of ours');
      return false;
    }
    const scope = { accountId: message.a, envId: message.e };
    const now = this.clock.now();
    const at = new Date(now).toISOString();
    await this.events.publish(
      this.events.event(
        { ...scope, trackingId: message.t, userId: message.u, notificationId: message.n },
        'email_failed',
        {
          email_failed_at: at,
          email_failed_code: report.code,
          email_failed_internal:
            report.kind === 'bounce'
              ? `the recipient's server reported ${report.status} after accepting the message`
              : `the recipient reported the message (${report.feedbackType})`,
          ...(report.recipient !== undefined ? { email_failed_recipient: report.recipient } : {}),
          ...(report.kind === 'bounce' && report.diagnostic !== undefined
            ? { email_failed_diagnostic_code: report.diagnostic }
            : {}),
        },
        'email',
        now,
      ),
    );
    if (report.kind === 'bounce' && !report.permanent) return true;
    const stored = await this.users.get(scope, message.u);
    // Only the address the report is about: the user may have changed theirs since.
    if (
      stored?.email === undefined ||
      (report.recipient !== undefined && stored.email.toLowerCase() !== report.recipient.toLowerCase())
    )
      return true;
    await this.users.setEmailSuppression(scope, message.u, {
      reason: report.kind === 'bounce' ? 'Bounce' : 'Complaint',
      details: {
        email: stored.email,
        code: report.code,
        trackingId: message.t,
        at,
        ...(report.kind === 'bounce' ? { status: report.status } : { feedbackType: report.feedbackType }),
      },
    });
    return true;
  }
}
