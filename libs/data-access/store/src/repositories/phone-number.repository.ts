import { Inject, Injectable } from '@nestjs/common';
import type { PhoneNumberRecord } from '@notify/domain';
import { Collections, type PhoneNumberDoc } from '../collections';
import {
  DOCUMENT_STORE,
  type DocumentCollection,
  type DocumentStore,
  MAX_PAGE_LIMIT,
} from '../document-store.port';

/** What the provider sold: the number, its country and the purchase's id. */
export interface PurchasedNumber {
  readonly accountId: string;
  readonly phoneNumber: string;
  readonly countryCode: string;
  readonly providerSid: string;
}

const recordOf = (doc: PhoneNumberDoc): PhoneNumberRecord => ({
  accountId: doc.accountId,
  phoneNumber: doc.phoneNumber,
  countryCode: doc.countryCode,
  numberType: doc.numberType,
  status: doc.status,
  providerSid: doc.providerSid,
  createdAt: doc.createdAt,
  ...(doc.releasedAt !== undefined ? { releasedAt: doc.releasedAt } : {}),
});

/**
 * The phone numbers the service bought for accounts. A number is unique across the service (its
 * key), so two accounts can never both hold it; each account reads only its own. A released number
 * stays with the account that released it until another account takes it.
 */
@Injectable()
export class PhoneNumberRepository {
  private readonly numbers: DocumentCollection<PhoneNumberDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.numbers = store.collection(Collections.phoneNumbers);
  }

  /** The account's record of the number (active or released); undefined for another account's. */
  async get(accountId: string, phoneNumber: string): Promise<PhoneNumberRecord | undefined> {
    const doc = await this.numbers.get([phoneNumber]);
    return doc?.accountId === accountId ? recordOf(doc) : undefined;
  }

  /**
   * The account's numbers in one status, oldest first (at most MAX_PAGE_LIMIT). The status is part
   * of the query: an account with many released numbers still sees every active one.
   */
  async list(accountId: string, status: PhoneNumberRecord['status']): Promise<PhoneNumberRecord[]> {
    const docs = await this.numbers.find({ accountId, status }, MAX_PAGE_LIMIT);
    return docs
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.phoneNumber.localeCompare(b.phoneNumber))
      .map(recordOf);
  }

  /**
   * Records a purchase as the account's active number. A number the account held before keeps its
   * first `createdAt`; one another account released becomes this account's. 'taken' when another
   * account holds it active (nothing is written).
   */
  async activate(purchase: PurchasedNumber, now: string): Promise<PhoneNumberRecord | 'taken'> {
    const doc = await this.numbers.modify([purchase.phoneNumber], (current) => {
      if (current?.status === 'active' && current.accountId !== purchase.accountId) return undefined;
      return {
        ...purchase,
        numberType: 'local',
        status: 'active',
        createdAt: current?.accountId === purchase.accountId ? current.createdAt : now,
      };
    });
    return doc?.accountId === purchase.accountId &&
      doc.status === 'active' &&
      doc.providerSid === purchase.providerSid
      ? recordOf(doc)
      : 'taken';
  }

  /** Marks the account's active number released; undefined when it has no such active number. */
  async release(accountId: string, phoneNumber: string, now: string): Promise<PhoneNumberRecord | undefined> {
    const doc = await this.numbers.modify([phoneNumber], (current) =>
      current?.accountId === accountId && current.status === 'active'
        ? { ...current, status: 'released', releasedAt: now }
        : undefined,
    );
    return doc?.accountId === accountId && doc.status === 'released' && doc.releasedAt === now
      ? recordOf(doc)
      : undefined;
  }
}
