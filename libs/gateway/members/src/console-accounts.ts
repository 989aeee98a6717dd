import type { Role } from '@notify/domain';
import type { MembershipRepository } from '@notify/store';

/** A person as the console shows them: who they are and their role in each of their accounts. */
export interface ConsoleMember {
  readonly userId: string;
  readonly email: string;
  readonly accounts: { readonly accountId: string; readonly role: Role }[];
}

/** The person's accounts, the first one joined first (the one a request naming none acts in). */
export async function consoleMember(
  memberships: MembershipRepository,
  person: { readonly userId: string; readonly email: string },
): Promise<ConsoleMember> {
  const held = await memberships.listByPerson(person.userId);
  return {
    userId: person.userId,
    email: person.email,
    accounts: held.map(({ accountId, role }) => ({ accountId, role })),
  };
}
