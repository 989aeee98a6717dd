import { Injectable } from '@nestjs/common';
import { mayGrantRole, normalizeEmail, type Role } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { InvitationRepository, MembershipRepository, PeopleRepository } from '@notify/store';
import { type Clock, ConflictError } from '@notify/util';
import { forbidden } from './member-errors';
import { linkMail, MemberMail } from './member-mail';
import { SignedTokens } from './signed-tokens';

export interface InviteMemberCommand {
  readonly accountId: string;
  readonly email: string;
  readonly role: Role;
  /** Who invites, as recorded and logged: `member:<userId>` (checked again when the link is followed). */
  readonly invitedBy: string;
  /** The inviter's role in the account: only an owner invites an owner. */
  readonly inviterRole: Role;
  /** The environment whose email pipeline sends the invitation; else the account's oldest. */
  readonly envId?: string;
}

export const ACCEPT_INVITE_PATH = 'profile/accept_invite';

/**
 * Invites someone to the account: a pending invitation (replacing an earlier one for the same
 * address, whose link stops working) and an email carrying its single-use, expiring link.
 */
@Injectable()
export class InviteMemberUseCase {
  constructor(
    private readonly people: PeopleRepository,
    private readonly memberships: MembershipRepository,
    private readonly invitations: InvitationRepository,
    private readonly tokens: SignedTokens,
    private readonly mail: MemberMail,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: InviteMemberCommand): Promise<{ message: string }> {
    const email = normalizeEmail(command.email);
    if (!mayGrantRole(command.inviterRole, command.role))
      throw forbidden(
        command.inviterRole === 'member'
          ? 'A member may not invite anyone.'
          : 'Only an owner may invite an owner.',
        'Ask an owner of the account to send this invitation.',
      );
    const person = await this.people.findByEmail(email);
    if (person !== undefined && (await this.memberships.get(command.accountId, person.userId)) !== undefined)
      throw new ConflictError({
        code: 'ALREADY_MEMBER',
        message: `${email} is already a member of this account.`,
        fix: 'Change their role with PATCH /members/{userId} instead.',
      });
    const environment = await this.mail.environment(command.accountId, command.envId);
    const issued = this.tokens.issue({ purpose: 'invite', accountId: command.accountId, email });
    await this.invitations.invite({
      accountId: command.accountId,
      email,
      role: command.role,
      tokenHash: issued.tokenHash,
      invitedBy: command.invitedBy,
      createdAt: new Date(this.clock.now()).toISOString(),
      expiresAt: new Date(issued.expiresAt).toISOString(),
    });
    await this.mail.send(
      {
        to: email,
        type: 'notify_member_invitation',
        subject: 'You are invited to a Notify account',
        html: linkMail(
          `You are invited to join a Notify account as ${command.role === 'admin' ? 'an admin' : `a ${command.role}`}. The link works once, until ${new Date(issued.expiresAt).toUTCString()}.`,
          'Accept the invitation',
          this.mail.link(ACCEPT_INVITE_PATH, issued.token),
        ),
        sentBy: command.invitedBy,
      },
      environment,
    );
    return { message: `Invitation sent to ${email}.` };
  }
}
