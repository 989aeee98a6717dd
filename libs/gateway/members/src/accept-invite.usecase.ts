import { Injectable } from '@nestjs/common';
import { InjectClock } from '@notify/platform';
import { InvitationRepository, MembershipRepository, PeopleRepository } from '@notify/store';
import type { Clock } from '@notify/util';
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
 * became a member meanwhile keeps the role they have.
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
