import { Inject, Injectable } from '@nestjs/common';
import type { Membership, Role } from '@notify/domain';
import { type AccountDoc, Collections, type MembershipDoc } from '../collections';
import {
  DOCUMENT_STORE,
  type DocumentCollection,
  type DocumentStore,
  MAX_PAGE_LIMIT,
} from '../document-store.port';

/**
 * What a role change or a removal did: `last_owner` when it would leave the account without an
 * owner; `owner` when the member is an owner and the caller may not remove one.
 */
export type MembershipOutcome = 'done' | 'not_found' | 'last_owner' | 'owner';

const MAX_ATTEMPTS = 8;

/**
 * Who belongs to which account, with what role. Every read is scoped by account or by person.
 *
 * An account never loses its last owner, even under concurrent changes: the account document keeps
 * `ownerCount`, which is never more than the owners it has. A change that loses an owner first
 * lowers the count by compare-and-swap (refused at one), then changes the membership only if it is
 * still an owner's (else the count is given back); a change that gains one raises the count after.
 * A process dying between the two steps leaves the count low, which can only refuse a change.
 */
@Injectable()
export class MembershipRepository {
  private readonly memberships: DocumentCollection<MembershipDoc>;
  private readonly accounts: DocumentCollection<AccountDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.memberships = store.collection(Collections.memberships);
    this.accounts = store.collection(Collections.accounts);
  }

  get(accountId: string, userId: string): Promise<Membership | undefined> {
    return this.memberships.get([accountId, userId]);
  }

  /** Adds the person to the account; false when already a member (the existing role is kept). */
  async add(membership: Membership): Promise<boolean> {
    const added = await this.memberships.insert({ ...membership });
    if (added && membership.role === 'owner') await this.gainedOwner(membership.accountId);
    return added;
  }

  /** Every member of the account, in user id order. */
  async listByAccount(accountId: string): Promise<Membership[]> {
    const all: Membership[] = [];
    for (;;) {
      const page = await this.memberships.list([accountId], {
        after: all.at(-1)?.userId,
        limit: MAX_PAGE_LIMIT,
      });
      all.push(...page);
      if (page.length < MAX_PAGE_LIMIT) return all;
    }
  }

  /** The accounts a person belongs to, oldest membership first. */
  async listByPerson(userId: string): Promise<Membership[]> {
    const list = await this.memberships.find({ userId });
    return list.sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.accountId.localeCompare(b.accountId),
    );
  }

  /** Gives the member another role; the account's last owner cannot take another. */
  async changeRole(accountId: string, userId: string, role: Role, now: string): Promise<MembershipOutcome> {
    const key = [accountId, userId];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.memberships.get(key);
      if (current === undefined) return 'not_found';
      if (current.role === role) return 'done';
      const losesOwner = current.role === 'owner';
      if (losesOwner && !(await this.reserveOwner(accountId))) return 'last_owner';
      let changed = false;
      try {
        let changes = false;
        await this.memberships.modify(key, (stored) => {
          changes = stored !== undefined && (stored.role === 'owner') === losesOwner;
          return changes && stored !== undefined ? { ...stored, role, updatedAt: now } : undefined;
        });
        changed = changes;
      } finally {
        // The reservation is given back when the membership did not change (or the write failed).
        if (losesOwner && !changed) await this.gainedOwner(accountId);
      }
      if (changed && role === 'owner') await this.gainedOwner(accountId);
      if (changed) return 'done';
    }
    throw new Error(`membership ${accountId}/${userId}: too many concurrent changes`);
  }

  /**
   * Removes the member; the account's last owner cannot be removed. With `owners: false` an owner
   * is not removed either (decided on the membership as it is removed, so a concurrent promotion
   * cannot slip through).
   */
  async remove(
    accountId: string,
    userId: string,
    options: { owners?: boolean } = {},
  ): Promise<MembershipOutcome> {
    const key = [accountId, userId];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.memberships.get(key);
      if (current === undefined) return 'not_found';
      const losesOwner = current.role === 'owner';
      if (losesOwner && options.owners === false) return 'owner';
      if (losesOwner && !(await this.reserveOwner(accountId))) return 'last_owner';
      let removed = false;
      try {
        removed = await this.memberships.remove(key, (stored) => (stored.role === 'owner') === losesOwner);
      } finally {
        if (losesOwner && !removed) await this.gainedOwner(accountId);
      }
      if (removed) return 'done';
    }
    throw new Error(`membership ${accountId}/${userId}: too many concurrent changes`);
  }

  /**
   * Takes one owner off the count before an owner is demoted or removed; false when only one is
   * counted. Memberships (and so owners) began with the count: an account without one has none.
   */
  private async reserveOwner(accountId: string): Promise<boolean> {
    let reserved = false;
    await this.accounts.modify([accountId], (stored) => {
      const count = stored?.ownerCount ?? 0;
      reserved = stored !== undefined && count > 1;
      return reserved && stored !== undefined ? { ...stored, ownerCount: count - 1 } : undefined;
    });
    return reserved;
  }

  /** One owner more (a promotion, an owner added, or a reservation given back). */
  private async gainedOwner(accountId: string): Promise<void> {
    await this.accounts.modify([accountId], (stored) =>
      stored === undefined ? undefined : { ...stored, ownerCount: (stored.ownerCount ?? 0) + 1 },
    );
  }
}
