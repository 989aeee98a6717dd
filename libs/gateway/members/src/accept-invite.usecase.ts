import { Injectable } from '@nestjs/common';
import { mayGrantRole, memberOfActor } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { InvitationRepository, MembershipRepository, PeopleRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { invitationRevoked } from './member-errors';
import { hashToken, SignedTokens, tokenUsed } from './signed-tokens';

export interface AcceptedInvite {
  readonly success: true;
  readonly accountId: string;
  /** False when the invitation created the person. */
  readonly userExists: boolean;
  readonly inviteeEmail: string;
}

/**
 * Redeems an invitation link: the person (created if new) becomes a member with the invited role.
 * A forged, expired, used or replaced token is refused before anything is written; someone who
 * became a member meanwhile keeps the role they have. An invitation lasts only while its inviter
 * may still send it: one whose inviter has left the account, or no longer holds a role that may
 * grant the invited one, is spent without effect (400 INVITATION_REVOKED).
 */
@Injectable()
export class AcceptInviteUseCase {
  constructor(
    private readonly tokens: SignedTokens,
    private readonly invitations: InvitationRepository,
    private readonly people: PeopleRepository,
    private readonly memberships: MembershipRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<AcceptedInvite> {
    const claims = this.tokens.verify(token, 'invite');
    const invitation = await this.invitations.redeemInvitation(
      claims.accountId,
      claims.email,
      hashToken(token),
    );
    if (invitation === undefined) throw tokenUsed();
    const inviter = memberOfActor(invitation.invitedBy);
    const inviterRole =
      inviter === undefined ? undefined : (await this.memberships.get(invitation.accountId, inviter))?.role;
    if (inviterRole === undefined || !mayGrantRole(inviterRole, invitation.role)) throw invitationRevoked();
    const now = new Date(this.clock.now()).toISOString();
    const { person, created } = await this.people.findOrCreate(invitation.email, now);
    await this.memberships.add({
      accountId: invitation.accountId,
      userId: person.userId,
      role: invitation.role,
      createdAt: now,
      updatedAt: now,
    });
    return {
      success: true,
      accountId: invitation.accountId,
      userExists: !created,
      inviteeEmail: person.email,
    };
  }
}
