import { Inject, Injectable } from '@nestjs/common';
import { normalizeEmail, type Person } from '@notify/domain';
import { randomUUID } from 'node:crypto';
import { Collections, type PersonDoc, type PersonEmailDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

const MAX_ATTEMPTS = 8;

/**
 * People who sign in with a JWT, one record each across accounts. An email belongs to one person:
 * its claim document is written first, so two concurrent creations cannot both win. A claim is the
 * person's while their record is missing (a creation not finished: whoever comes next finishes it
 * under the claim's userId) or carries the address; a claim whose person has moved to another
 * address (an email change that died half-way) is stale and goes to the next person who needs it.
 */
@Injectable()
export class PeopleRepository {
  private readonly people: DocumentCollection<PersonDoc>;
  private readonly emails: DocumentCollection<PersonEmailDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.people = store.collection(Collections.people);
    this.emails = store.collection(Collections.personEmails);
  }

  get(userId: string): Promise<Person | undefined> {
    return this.people.get([userId]);
  }

  async findByEmail(email: string): Promise<Person | undefined> {
    const address = normalizeEmail(email);
    const claim = await this.emails.get([address]);
    const person = claim === undefined ? undefined : await this.people.get([claim.userId]);
    return person?.email === address ? person : undefined;
  }

  async findBySub(sub: string): Promise<Person | undefined> {
    const [person] = await this.people.find({ sub }, 1);
    return person;
  }

  /** The person with this email, created when there is none (idempotent under races and after a crash). */
  async findOrCreate(email: string, now: string): Promise<{ person: Person; created: boolean }> {
    const address = normalizeEmail(email);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const fresh = `usr_${randomUUID()}`;
      const userId = (await this.claimFor(address, fresh)) ? fresh : (await this.emails.get([address]))?.userId;
      if (userId === undefined) continue;
      const person: Person = { userId, email: address, createdAt: now };
      if (await this.people.insert({ ...person })) return { person, created: true };
      const existing = await this.people.get([userId]);
      if (existing?.email === address) return { person: existing, created: false };
    }
    throw new Error(`person ${address}: too many concurrent changes`);
  }

  /** Binds the identity provider's subject on first use; false when the person is bound to another. */
  async bindSub(userId: string, sub: string): Promise<boolean> {
    const updated = await this.people.modify([userId], (current) =>
      current === undefined || current.sub !== undefined ? undefined : { ...current, sub },
    );
    return updated?.sub === sub;
  }

  /**
   * Moves a person to a new email: the new address is claimed first (false when someone has it; a
   * claim of theirs left by an earlier attempt that died is reused), then the record changes, then
   * the old claim is dropped. A stale claim taken over meanwhile (see above) undoes the move.
   */
  async changeEmail(userId: string, newEmail: string): Promise<boolean> {
    const address = normalizeEmail(newEmail);
    const person = await this.people.get([userId]);
    if (person === undefined) return false;
    if (person.email === address) return true;
    if (!(await this.claimFor(address, userId))) return false;
    await this.people.modify([userId], (current) =>
      current === undefined ? undefined : { ...current, email: address },
    );
    if (!(await this.claimedBy(address, userId))) {
      await this.people.modify([userId], (current) =>
        current?.email === address ? { ...current, email: person.email } : undefined,
      );
      return false;
    }
    await this.emails.remove([person.email], (stored) => stored.userId === userId);
    return true;
  }

  private async claimedBy(address: string, userId: string): Promise<boolean> {
    return (await this.emails.get([address]))?.userId === userId;
  }

  /**
   * Claims the address for `userId`: true when it is claimed (or was already, by them); false when
   * it is another's (their record missing counts as theirs: a creation not finished). A stale claim
   * is taken over.
   */
  private async claimFor(address: string, userId: string): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (await this.emails.insert({ email: address, userId })) return true;
      const claim = await this.emails.get([address]);
      if (claim === undefined) continue;
      if (claim.userId === userId) return true;
      const holder = await this.people.get([claim.userId]);
      if (holder === undefined || holder.email === address) return false;
      await this.emails.remove([address], (stored) => stored.userId === claim.userId);
    }
    return false;
  }
}
