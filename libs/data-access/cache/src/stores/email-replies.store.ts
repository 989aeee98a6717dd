import { Inject, Injectable } from '@nestjs/common';
import { EMAIL_REPLY_TTL_MS, type EmailReply, emailReplyKey, emailReplySchema } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';

type Scope = { readonly accountId: string; readonly envId: string };

/**
 * Whose message a reply address names: the email sender notes it when it gives a message a reply
 * address, the inbound service reads it back for the EMAIL_INBOUND payload while it lasts.
 */
@Injectable()
export class EmailRepliesStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  remember(scope: Scope, trackingId: string, reply: EmailReply): Promise<void> {
    return this.coordination.set(
      emailReplyKey(scope.accountId, scope.envId, trackingId),
      JSON.stringify(reply),
      EMAIL_REPLY_TTL_MS,
    );
  }

  /** The note of the message, or undefined once it lapsed (or if it cannot be read). */
  async find(scope: Scope, trackingId: string): Promise<EmailReply | undefined> {
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
