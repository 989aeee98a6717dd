import { Inject, Injectable } from '@nestjs/common';
import type { Membership } from '@notify/domain';
import { Collections, type MembershipDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

/** Who belongs to which account, with what role. Every read is scoped by account or by person. */
@Injectable()
export class MembershipRepository {
  private readonly memberships: DocumentCollection<MembershipDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.memberships = store.collection(Collections.memberships);
  }

  get(accountId: string, userId: string): Promise<Membership | undefined> {
    return this.memberships.get([accountId, userId]);
  }

  /** Adds the person to the account; false when already a member (the existing role is kept). */
  add(membership: Membership): Promise<boolean> {
    return this.memberships.insert({ ...membership });
  }

  listByAccount(accountId: string): Promise<Membership[]> {
    return this.memberships.list([accountId]);
  }

  /** The accounts a person belongs to, oldest membership first. */
  async listByPerson(userId: string): Promise<Membership[]> {
    const list = await this.memberships.find({ userId });
    return list.sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.accountId.localeCompare(b.accountId),
    );
  }
}
