import { Injectable } from '@nestjs/common';
import type { Role } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';

/** An invitation to join an account, for a person who is not yet among the inviter's accounts. */
export interface MemberInvitation {
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
  /** The userId of the person inviting. */
  readonly invitedBy: string;
  /** The environment whose email pipeline carries the invitation. */
  readonly envId: string;
}

/** Sends invitations to join an account (the members area owns how). */
export abstract class MemberInvitations {
  abstract invite(input: MemberInvitation): Promise<void>;
}

/**
 * Until the members area sends invitations, an invitation is logged and not sent: the account is
 * created without the person, whom an owner or admin can invite again.
 */
@Injectable()
export class LoggedMemberInvitations extends MemberInvitations {
  constructor(@InjectLogger() private readonly logger: Logger) {
    super();
  }

  invite(input: MemberInvitation): Promise<void> {
    this.logger.warn(
      { accountId: input.accountId, envId: input.envId, role: input.role },
      'invitation not sent: this installation does not send invitations yet',
    );
    return Promise.resolve();
  }
}
