import { Injectable } from '@nestjs/common';
import { type Role, roleAllows } from '@notify/domain';
import { MembershipRepository } from '@notify/store';
import { forbidden, lastOwner, memberNotFound } from './member-errors';

export interface RemoveMemberCommand {
  readonly accountId: string;
  readonly userId: string;
  /** Who removes: a member (their userId) or an API key (no userId, an admin's rights). */
  readonly actor: { readonly userId?: string; readonly role: Role };
}

/**
 * Removes a member: anyone may leave, admins remove others, and only an owner removes an owner.
 * The last owner can neither leave nor be removed (400 LAST_OWNER).
 */
@Injectable()
export class RemoveMemberUseCase {
  constructor(private readonly memberships: MembershipRepository) {}

  async execute(command: RemoveMemberCommand): Promise<{ success: true }> {
    const target = await this.memberships.get(command.accountId, command.userId);
    if (target === undefined) throw memberNotFound(command.userId);
    if (command.actor.userId !== command.userId) {
      if (!roleAllows(command.actor.role, 'admin'))
        throw forbidden('Only an owner or admin may remove another member.', 'Ask an admin of the account.');
      if (target.role === 'owner' && command.actor.role !== 'owner')
        throw forbidden('Only an owner may remove an owner.', 'Ask an owner of the account.');
    }
    const outcome = await this.memberships.remove(command.accountId, command.userId);
    if (outcome === 'not_found') throw memberNotFound(command.userId);
    if (outcome === 'last_owner') throw lastOwner();
    return { success: true };
  }
}
