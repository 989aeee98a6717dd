import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_HISTORY_KEEP, type AccountEvent } from '@notify/domain';
import { type AccountHistoryDoc, Collections } from '../collections';
import {
  DOCUMENT_STORE,
  type DocumentCollection,
  type DocumentStore,
  MAX_PAGE_LIMIT,
} from '../document-store.port';

const COUNTER = '#seq';

/**
 * What happened to each account, append-only and bounded: a ring of ACCOUNT_HISTORY_KEEP slots per
 * account numbered by an atomic counter, so the newest events are kept and the history never grows
 * past that however much happens. Any area records its events here.
 */
@Injectable()
export class AccountHistoryRepository {
  private readonly docs: DocumentCollection<AccountHistoryDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.docs = store.collection(Collections.accountHistory);
  }

  async append(accountId: string, event: AccountEvent): Promise<void> {
    // The number this write took: `modify` re-runs the change on a conflict, so its last run is ours.
    let seq = 0;
    await this.docs.modify([accountId, COUNTER], (current) => {
      seq = (current?.seq ?? 0) + 1;
      return { accountId, slot: COUNTER, seq };
    });
    const slot = `slot-${seq % ACCOUNT_HISTORY_KEEP}`;
    await this.docs.modify([accountId, slot], () => ({ accountId, slot, seq, event }));
  }

  /** The newest `limit` events, newest first. */
  async list(accountId: string, limit: number): Promise<AccountEvent[]> {
    const docs = await this.docs.list([accountId], { limit: MAX_PAGE_LIMIT });
    return docs
      .filter((doc) => doc.slot !== COUNTER && doc.event !== undefined)
      .sort((a, b) => b.seq - a.seq)
      .slice(0, limit)
      .flatMap((doc) => (doc.event === undefined ? [] : [doc.event]));
  }
}
