import { Injectable } from '@nestjs/common';
import { memberActor, normalizeEmail } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { InvitationRepository, PeopleRepository } from '@notify/store';
import { type Clock, ConflictError, InvalidRequestError } from '@notify/util';
import { memberNotFound } from './member-errors';
import { linkMail, MemberMail } from './member-mail';
import { SignedTokens } from './signed-tokens';

export interface RequestEmailChangeCommand {
  readonly userId: string;
  readonly accountId: string;
  readonly newEmail: string;
}

export const CONFIRM_EMAIL_CHANGE_PATH = 'profile/change-email/confirm';

export const emailTaken = (email: string) =>
  new ConflictError({
    code: 'EMAIL_TAKEN',
    message: `${email} belongs to another person.`,
    fix: 'Choose another address.',
  });

/**
 * A member asks to move to a new email address: nothing changes yet; a single-use, expiring link
 * is mailed to the new address, and following it makes the change (ConfirmEmailChangeUseCase).
 * A newer request replaces a pending one. The link goes through the account's oldest live (not
 * test) environment, whatever environment the request names: a test environment keeps its mail
 * in a sandbox outbox the requester can read, where the link would prove nothing about the address.
 */
@Injectable()
export class RequestEmailChangeUseCase {
  constructor(
    private readonly people: PeopleRepository,
    private readonly pending: InvitationRepository,
    private readonly tokens: SignedTokens,
    private readonly mail: MemberMail,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: RequestEmailChangeCommand): Promise<{ success: true }> {
    const newEmail = normalizeEmail(command.newEmail);
    const person = await this.people.get(command.userId);
    if (person === undefined) throw memberNotFound(command.userId);
    if (person.email === newEmail)
      throw new InvalidRequestError({
        code: 'SAME_EMAIL',
        message: `Your email is already ${newEmail}.`,
        fix: 'Give the new address.',
      });
    const holder = await this.people.findByEmail(newEmail);
    if (holder !== undefined && holder.userId !== person.userId) throw emailTaken(newEmail);
    const environment = await this.mail.liveEnvironment(command.accountId);
    const issued = this.tokens.issue({ purpose: 'email_change', userId: person.userId, email: newEmail });
    await this.pending.requestEmailChange({
      userId: person.userId,
      newEmail,
      tokenHash: issued.tokenHash,
      createdAt: new Date(this.clock.now()).toISOString(),
      expiresAt: new Date(issued.expiresAt).toISOString(),
    });
    await this.mail.send(
      {
        to: newEmail,
        type: 'notify_email_change',
        subject: 'Confirm your new email address',
        html: linkMail(
          `Confirm that ${newEmail} is the new sign-in address of ${person.email}. Until you do, nothing changes. The link works once, until ${new Date(issued.expiresAt).toUTCString()}.`,
          'Confirm the new address',
          this.mail.link(CONFIRM_EMAIL_CHANGE_PATH, issued.token),
        ),
        sentBy: memberActor(person.userId),
      },
      environment,
    );
    return { success: true };
  }
}
