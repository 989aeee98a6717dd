import { Injectable } from '@nestjs/common';
import { organizationIdOf, type Role } from '@notify/domain';
import type { Caller } from '@notify/gateway-auth';
import { AccountRepository, MembershipRepository } from '@notify/store';

export interface AccessibleAccount {
  readonly accountId: string;
  readonly name: string;
  /** The caller's role there; a secret API key acts with an admin's rights. */
  readonly role: Role;
  readonly createdAt: string;
  readonly organizationId: string;
}

/** The accounts the caller can reach: a member's, oldest membership first; an API key's own account only. */
@Injectable()
export class ListAccountsUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly memberships: MembershipRepository,
  ) {}

  async execute(caller: Caller): Promise<{ accounts: AccessibleAccount[] }> {
    const places =
      caller.kind === 'key'
        ? [{ accountId: caller.accountId, role: 'admin' as const }]
        : await this.memberships.listByPerson(caller.userId);
    const accounts: AccessibleAccount[] = [];
    for (const { accountId, role } of places) {
      const account = await this.accounts.getAccount(accountId);
      if (account === undefined) continue;
      accounts.push({
        accountId,
        name: account.name,
        role,
        createdAt: account.createdAt,
        organizationId: organizationIdOf(account),
      });
    }
    return { accounts };
  }
}
