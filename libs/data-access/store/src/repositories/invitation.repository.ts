import { Inject, Injectable } from '@nestjs/common';
import { type EmailChange, type Invitation, normalizeEmail } from '@notify/domain';
import { Collections, type EmailChangeDoc, type InvitationDoc } from '../collections';
import {
  DOCUMENT_STORE,
  type DocumentCollection,
  type DocumentStore,
  MAX_PAGE_LIMIT,
} from '../document-store.port';

/**
 * Pending invitations (one per account and email) and email changes (one per person). Each holds
 * the hash of the one token that redeems it: a newer one replaces it, and redeeming removes it
 * only while it still holds that hash, so a token works once and a replaced one never.
 */
@Injectable()
export class InvitationRepository {
  private readonly invitations: DocumentCollection<InvitationDoc>;
  private readonly emailChanges: DocumentCollection<EmailChangeDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.invitations = store.collection(Collections.invitations);
    this.emailChanges = store.collection(Collections.emailChanges);
  }

  /** Stores the invitation, replacing a pending one for the same account and email. */
  async invite(invitation: Invitation): Promise<void> {
    const doc = { ...invitation, email: normalizeEmail(invitation.email) };
    await this.invitations.modify([doc.accountId, doc.email], () => doc);
  }

  /** Takes the invitation if it still holds this token's hash; undefined when used or replaced. */
  async redeemInvitation(
    accountId: string,
    email: string,
    tokenHash: string,
  ): Promise<Invitation | undefined> {
    const key = [accountId, normalizeEmail(email)];
    const pending = await this.invitations.get(key);
    if (pending?.tokenHash !== tokenHash) return undefined;
    return (await this.invitations.remove(key, (stored) => stored.tokenHash === tokenHash))
      ? pending
      : undefined;
  }

  /**
   * The account's pending invitations, by email (expired ones included: their links answer
   * TOKEN_EXPIRED until replaced or revoked), at most `limit`.
   */
  listInvitations(accountId: string, limit = MAX_PAGE_LIMIT): Promise<Invitation[]> {
    return this.invitations.list([accountId], { limit });
  }

  /** The account's pending invitation for this email, if any. */
  getInvitation(accountId: string, email: string): Promise<Invitation | undefined> {
    return this.invitations.get([accountId, normalizeEmail(email)]);
  }

  /**
   * Drops the invitation if it is still the one read (same token hash), so its link stops working;
   * false when it was redeemed or replaced meanwhile.
   */
  revokeInvitation(invitation: Invitation): Promise<boolean> {
    return this.invitations.remove(
      [invitation.accountId, normalizeEmail(invitation.email)],
      (stored) => stored.tokenHash === invitation.tokenHash,
    );
  }

  /** Drops the account's pending invitations sent by `invitedBy` (whose right to send them ended); answers how many. */
  async revokeSentBy(accountId: string, invitedBy: string): Promise<number> {
    let revoked = 0;
    let after: string | undefined;
    for (;;) {
      const page = await this.invitations.list([accountId], { after, limit: MAX_PAGE_LIMIT });
      for (const invitation of page)
        if (
          invitation.invitedBy === invitedBy &&
          (await this.invitations.remove(
            [accountId, invitation.email],
            (stored) => stored.invitedBy === invitedBy,
          ))
        )
          revoked++;
      if (page.length < MAX_PAGE_LIMIT) return revoked;
      after = page.at(-1)?.email;
    }
  }

  /** Stores the person's requested email change, replacing a pending one. */
  async requestEmailChange(change: EmailChange): Promise<void> {
    const doc = { ...change, newEmail: normalizeEmail(change.newEmail) };
    await this.emailChanges.modify([doc.userId], () => doc);
  }

  /** Takes the email change if it still holds this token's hash. */
  async redeemEmailChange(userId: string, tokenHash: string): Promise<EmailChange | undefined> {
    const pending = await this.emailChanges.get([userId]);
    if (pending?.tokenHash !== tokenHash) return undefined;
    return (await this.emailChanges.remove([userId], (stored) => stored.tokenHash === tokenHash))
      ? pending
      : undefined;
  }
}
