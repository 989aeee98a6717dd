import { Injectable } from '@nestjs/common';
import { mayGrantRole, type Role } from '@notify/domain';
import { InvitationRepository } from '@notify/store';
import { NotFoundError } from '@notify/util';
import { forbidden } from './member-errors';

/**
 * Revokes a pending invitation (its link then answers TOKEN_USED). Whoever may send an invitation
 * of that role may revoke it: an admin a member's or an admin's, only an owner an owner's.
 */
@Injectable()
export class RevokeInvitationUseCase {
  constructor(private readonly invitations: InvitationRepository) {}

  async execute(command: {
    readonly accountId: string;
    readonly email: string;
    readonly actorRole: Role;
  }): Promise<{ success: true }> {
    const pending = await this.invitations.getInvitation(command.accountId, command.email);
    if (pending === undefined) throw noInvitation(command.email);
    if (!mayGrantRole(command.actorRole, pending.role))
      throw forbidden(
        `Only an owner may revoke an invitation to become ${pending.role === 'owner' ? 'an owner' : `a ${pending.role}`}.`,
        'Ask an owner of the account to revoke it.',
      );
    // Redeemed or replaced since it was read: what the caller wanted revoked is gone either way.
    if (!(await this.invitations.revokeInvitation(pending))) throw noInvitation(command.email);
    return { success: true };
  }
}

const noInvitation = (email: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No pending invitation for ${email} in this account.`,
    fix: 'List the pending invitations with GET /members/invitations.',
  });
