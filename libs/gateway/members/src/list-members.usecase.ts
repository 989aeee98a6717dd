import { Injectable } from '@nestjs/common';
import { organizationIdOf } from '@notify/domain';
import { AccountRepository, MembershipRepository, PeopleRepository } from '@notify/store';

/** One member as the pingram client reads it: `groups` holds the member's role. */
export interface MemberView {
  readonly organizationId: string;
  readonly accountId: string;
  readonly userId: string;
  readonly createdAt: string;
  readonly email?: string;
  readonly groups: string[];
}

/** The members of the caller's account. */
@Injectable()
export class ListMembersUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly memberships: MembershipRepository,
    private readonly people: PeopleRepository,
  ) {}

  async execute(accountId: string): Promise<MemberView[]> {
    const account = await this.accounts.getAccount(accountId);
    const organizationId = organizationIdOf(account ?? { accountId });
    const members = await this.memberships.listByAccount(accountId);
    return Promise.all(
      members.map(async (m) => {
        const person = await this.people.get(m.userId);
        return {
          organizationId,
          accountId,
          userId: m.userId,
          createdAt: m.createdAt,
          ...(person === undefined ? {} : { email: person.email }),
          groups: [m.role],
        };
      }),
    );
  }
}
