import { Injectable } from '@nestjs/common';
import { InvitationRepository, PeopleRepository } from '@notify/store';
import { emailTaken } from './request-email-change.usecase';
import { hashToken, SignedTokens, tokenUsed } from './signed-tokens';

/**
 * Follows the link mailed to the new address: the person's email changes (their identity
 * provider's `sub` stays bound, so tokens for the new email sign them in). A forged, expired, used
 * or replaced token changes nothing; an address someone took meanwhile is 409 EMAIL_TAKEN.
 */
@Injectable()
export class ConfirmEmailChangeUseCase {
  constructor(
    private readonly tokens: SignedTokens,
    private readonly pending: InvitationRepository,
    private readonly people: PeopleRepository,
  ) {}

  async execute(token: string): Promise<{ success: true; email: string }> {
    const claims = this.tokens.verify(token, 'email_change');
    const change = await this.pending.redeemEmailChange(claims.userId, hashToken(token));
    if (change === undefined) throw tokenUsed();
    if (!(await this.people.changeEmail(change.userId, change.newEmail))) throw emailTaken(change.newEmail);
    return { success: true, email: change.newEmail };
  }
}
