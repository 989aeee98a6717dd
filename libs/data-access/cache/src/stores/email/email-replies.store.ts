import { Inject, Injectable } from '@nestjs/common';
import {
  EMAIL_REPLY_TTL_MS,
  type EmailReply,
  emailReplyKey,
  emailReplySchema,
  type TenantScope,
} from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../../cache.port';

/**
 * Whose email a message was (user and notification type), noted by the email sender for
 * EMAIL_REPLY_TTL_MS: a reply to it is logged for that user and type.
 */
@Injectable()
export class EmailRepliesStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  remember(scope: TenantScope, trackingId: string, reply: EmailReply): Promise<void> {
    return this.coordination.set(
      emailReplyKey(scope.accountId, scope.envId, trackingId),
      JSON.stringify(reply),
      EMAIL_REPLY_TTL_MS,
    );
  }

  /** Whose message it was, while the note lasts; undefined for an unreadable note too. */
  async find(scope: TenantScope, trackingId: string): Promise<EmailReply | undefined> {
    const stored = await this.coordination.get(emailReplyKey(scope.accountId, scope.envId, trackingId));
    if (stored === undefined) return undefined;
    try {
      const parsed = emailReplySchema.safeParse(JSON.parse(stored));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}
