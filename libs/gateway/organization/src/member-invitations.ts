import { Injectable } from '@nestjs/common';
import { memberActor, type Role } from '@notify/domain';
import { InviteMemberUseCase } from '@notify/gateway-members';

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
 * Invitations through the members area: mailed through the account's own email pipeline with a
 * single-use link. The inviter is the new account's owner, so any role may be given.
 */
@Injectable()
export class MailedMemberInvitations extends MemberInvitations {
  constructor(private readonly inviteMember: InviteMemberUseCase) {
    super();
  }

  async invite(input: MemberInvitation): Promise<void> {
    await this.inviteMember.execute({
      accountId: input.accountId,
      email: input.email,
      role: input.role,
      invitedBy: memberActor(input.invitedBy),
      inviterRole: 'owner',
      envId: input.envId,
    });
  }
}
