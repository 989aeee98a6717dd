import { Inject, Injectable } from '@nestjs/common';
import { normalizeEmail, type Person } from '@notify/domain';
import { randomUUID } from 'node:crypto';
import { Collections, type PersonDoc, type PersonEmailDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

/**
 * People who sign in with a JWT, one record each across accounts. An email belongs to one person:
 * its claim document is written first, so two concurrent creations cannot both win.
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
    const claim = await this.emails.get([normalizeEmail(email)]);
    return claim === undefined ? undefined : this.people.get([claim.userId]);
  }

  async findBySub(sub: string): Promise<Person | undefined> {
    const [person] = await this.people.find({ sub }, 1);
    return person;
  }

  /** The person with this email, created when there is none (idempotent under races). */
  async findOrCreate(email: string, now: string): Promise<{ person: Person; created: boolean }> {
    const address = normalizeEmail(email);
    const userId = `usr_${randomUUID()}`;
    if (!(await this.emails.insert({ email: address, userId }))) {
      const existing = await this.findByEmail(address);
      if (existing !== undefined) return { person: existing, created: false };
    }
    const person: Person = { userId, email: address, createdAt: now };
    await this.people.insert({ ...person });
    return { person, created: true };
  }

  /** Binds the identity provider's subject on first use; false when the person is bound to another. */
  async bindSub(userId: string, sub: string): Promise<boolean> {
    const updated = await this.people.modify([userId], (current) =>
      current === undefined || current.sub !== undefined ? undefined : { ...current, sub },
    );
    return updated?.sub === sub;
  }

  /**
   * Moves a person to a new email: the new address is claimed first (false when someone has it),
   * then the record changes, then the old claim is dropped.
   */
  async changeEmail(userId: string, newEmail: string): Promise<boolean> {
    const address = normalizeEmail(newEmail);
    const person = await this.people.get([userId]);
    if (person === undefined) return false;
    if (person.email === address) return true;
    if (!(await this.emails.insert({ email: address, userId }))) return false;
    await this.people.modify([userId], (current) =>
      current === undefined ? undefined : { ...current, email: address },
    );
    await this.emails.remove([person.email]);
    return true;
  }
}
