import { Injectable } from '@nestjs/common';
import { memberActor, type Role, roleAllows } from '@notify/domain';
import { InvitationRepository, MembershipRepository } from '@notify/store';
import { forbidden, lastOwner, memberNotFound } from './member-errors';

export interface RemoveMemberCommand {
  readonly accountId: string;
  readonly userId: string;
  /** The member who removes, with their role in the account. */
  readonly actor: { readonly userId: string; readonly role: Role };
}

/**
 * Removes a member: anyone may leave, admins remove others, and only an owner removes an owner.
 * The last owner can neither leave nor be removed (400 LAST_OWNER). The invitations the member
 * sent and nobody accepted yet go with them (accepting also checks the inviter is still a member
 * who may grant the role, which covers the invitations of a demoted member).
 */
@Injectable()
export class RemoveMemberUseCase {
  constructor(
    private readonly memberships: MembershipRepository,
    private readonly invitations: InvitationRepository,
  ) {}

  async execute(command: RemoveMemberCommand): Promise<{ success: true }> {
    const self = command.actor.userId === command.userId;
    if (!self && !roleAllows(command.actor.role, 'admin')) {
      if ((await this.memberships.get(command.accountId, command.userId)) === undefined)
        throw memberNotFound(command.userId);
      throw forbidden('Only an owner or admin may remove another member.', 'Ask an admin of the account.');
    }
    const outcome = await this.memberships.remove(command.accountId, command.userId, {
      owners: self || command.actor.role === 'owner',
    });
    switch (outcome) {
      case 'not_found':
        throw memberNotFound(command.userId);
      case 'last_owner':
        throw lastOwner();
      case 'owner':
        throw forbidden('Only an owner may remove an owner.', 'Ask an owner of the account.');
      case 'done':
        await this.invitations.revokeSentBy(command.accountId, memberActor(command.userId));
        return { success: true };
    }
  }
}
