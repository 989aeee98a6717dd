import { Injectable } from '@nestjs/common';
import type { Role } from '@notify/domain';
import { InvitationRepository } from '@notify/store';

/** A pending invitation as the API shows it: never its token or the token's hash. */
export interface InvitationView {
  readonly email: string;
  readonly role: Role;
  /** `member:<userId>` of the member who sent it. */
  readonly invitedBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** The account's pending invitations, oldest address first by email. */
@Injectable()
export class ListInvitationsUseCase {
  constructor(private readonly invitations: InvitationRepository) {}

  async execute(accountId: string): Promise<{ invitations: InvitationView[] }> {
    const pending = await this.invitations.listInvitations(accountId);
    return {
      invitations: pending.map(({ email, role, invitedBy, createdAt, expiresAt }) => ({
        email,
        role,
        invitedBy,
        createdAt,
        expiresAt,
      })),
    };
  }
}
