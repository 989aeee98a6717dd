import { Inject, Injectable } from '@nestjs/common';
import type { BrandRegistration, RegistrationStatus } from '@notify/domain';
import { type BrandRegistrationDoc, Collections } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

/** What a change decides from the stored registration: the new one, or undefined to leave it. */
export type BrandChange = (current: BrandRegistration | undefined) => BrandRegistration | undefined;

/** Each account's 10DLC brand registration: one per account, keyed by it. */
@Injectable()
export class BrandRegistrationRepository {
  private readonly brands: DocumentCollection<BrandRegistrationDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.brands = store.collection(Collections.brandRegistrations);
  }

  get(accountId: string): Promise<BrandRegistration | undefined> {
    return this.brands.get([accountId]);
  }

  /** Every account's registration whose brand is in `status`, the longest unchanged first. */
  withBrandStatus(status: RegistrationStatus, limit: number): Promise<BrandRegistration[]> {
    return this.brands.find({ brandStatus: status }, limit, 'updatedAt');
  }

  /**
   * Atomic read-modify-write of the account's registration: `change` decides from the stored one
   * (it may throw to refuse, and is re-run on a concurrent write), so a status check and the write
   * it allows cannot be split by another request. Resolves to the stored registration afterwards.
   */
  async change(accountId: string, change: BrandChange): Promise<BrandRegistration | undefined> {
    return this.brands.modify([accountId], (current) => {
      const next = change(current);
      return next === undefined ? undefined : { ...next, accountId };
    });
  }
}
