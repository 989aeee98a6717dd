import { Inject, Injectable } from '@nestjs/common';
import {
  feedPage,
  type InAppItem,
  type InAppPatch,
  isExpired,
  isRetracted,
  isUnread,
  Limits,
  patchItem,
  type Retraction,
  type TenantScope,
} from '@notify/domain';
import { Collections, type InAppItemDoc } from '../../collections';
import {
  DOCUMENT_STORE,
  type DocumentCollection,
  type DocumentStore,
  MAX_PAGE_LIMIT,
} from '../../document-store.port';
import { scopeKey, scopeOf } from '../scope';

const itemOf = (doc: InAppItemDoc): InAppItem => {
  const { accountId: _a, envId: _e, userId: _u, deliveredAt: _d, receivedAt: _r, ...item } = doc;
  return item;
};

/**
 * Each user's in-app inbox, per environment: at most Limits.inappItemsPerUser items,
 * each kept until its `expDate` (the type's retention). Expired and surplus items are dropped when
 * the next one arrives, and never shown in the meantime.
 */
@Injectable()
export class InAppRepository {
  private readonly items: DocumentCollection<InAppItemDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.items = store.collection(Collections.inappItems);
  }

  /**
   * Stores a new item (idempotent by id: a redelivered job stores nothing twice); true when new.
   * `receivedAt` is when its send came in, for the log's `inapp_delivered_after`.
   */
  async add(
    scope: TenantScope,
    userId: string,
    item: InAppItem,
    receivedAt: number,
    now: number,
  ): Promise<boolean> {
    const inserted = await this.items.insert({ ...scopeOf(scope), userId, ...item, receivedAt });
    if (inserted) await this.prune(scope, userId, now);
    return inserted;
  }

  /** Newest first, strictly older than `before`; `undelivered` names those not yet recorded as delivered. */
  async page(
    scope: TenantScope,
    userId: string,
    options: { before?: string; count: number },
    now: number,
  ): Promise<{ items: InAppItem[]; undelivered: string[] }> {
    const docs = await this.all(scope, userId);
    const items = feedPage(docs.map(itemOf), options, now);
    const shown = new Set(items.map((item) => item.id));
    return {
      items,
      undelivered: docs.filter((doc) => shown.has(doc.id) && doc.deliveredAt === undefined).map((d) => d.id),
    };
  }

  async unreadCount(scope: TenantScope, userId: string, now: number): Promise<number> {
    return (await this.all(scope, userId)).filter((doc) => !isExpired(doc, now) && isUnread(doc)).length;
  }

  /** Applies the marks to the user's items among `trackingIds` (others' ids match nothing); the ids changed. */
  async update(scope: TenantScope, userId: string, patch: InAppPatch, now: number): Promise<string[]> {
    const { trackingIds, ...marks } = patch;
    const changed: string[] = [];
    for (const id of new Set(trackingIds)) {
      const doc = await this.items.modify([...scopeKey(scope), userId, id], (current) =>
        current === undefined ? undefined : patchItem(current, marks, now),
      );
      if (doc !== undefined) changed.push(id);
    }
    return changed;
  }

  /** Marks every unread item opened (`PATCH /user/inapp/unread`), optionally only one type's or one send's. */
  async markAllOpened(
    scope: TenantScope,
    userId: string,
    filter: { notificationId?: string; trackingId?: string },
    at: string,
  ): Promise<string[]> {
    const ids = (await this.all(scope, userId))
      .filter(
        (doc) =>
          isUnread(doc) &&
          (filter.notificationId === undefined || doc.notificationId === filter.notificationId) &&
          (filter.trackingId === undefined || doc.id === filter.trackingId),
      )
      .map((doc) => doc.id);
    const changed: string[] = [];
    for (let i = 0; i < ids.length; i += Limits.inappPage)
      changed.push(
        ...(await this.update(
          scope,
          userId,
          {
            trackingIds: ids.slice(i, i + Limits.inappPage),
            opened: at,
          },
          Date.parse(at),
        )),
      );
    return changed;
  }

  /**
   * Records that the item reached the user. Only the first caller (a live socket and a fetch may
   * race) gets the send's `receivedAt` back, and logs `inapp_delivered`; the others get undefined.
   */
  async markDelivered(
    scope: TenantScope,
    userId: string,
    id: string,
    at: string,
  ): Promise<number | undefined> {
    let first: number | undefined;
    await this.items.modify([...scopeKey(scope), userId, id], (current) => {
      first = current !== undefined && current.deliveredAt === undefined ? current.receivedAt : undefined;
      return first !== undefined && current !== undefined ? { ...current, deliveredAt: at } : undefined;
    });
    return first;
  }

  /** Deletes the user's items the retraction names; the ids removed. */
  async retract(scope: TenantScope, userId: string, retraction: Retraction): Promise<string[]> {
    const removed: string[] = [];
    for (const doc of await this.all(scope, userId))
      if (isRetracted(doc, retraction) && (await this.items.remove([...scopeKey(scope), userId, doc.id])))
        removed.push(doc.id);
    return removed;
  }

  removeAll(scope: TenantScope, userId: string): Promise<number> {
    return this.items.removeAll([...scopeKey(scope), userId]);
  }

  /** Every item of the user: the cap is well under a page, so one listing holds them all. */
  private all(scope: TenantScope, userId: string): Promise<InAppItemDoc[]> {
    return this.items.list([...scopeKey(scope), userId], { limit: MAX_PAGE_LIMIT });
  }

  /** Drops expired items and, beyond the per-user cap, the oldest. */
  private async prune(scope: TenantScope, userId: string, now: number): Promise<void> {
    const docs = await this.all(scope, userId);
    const keep = feedPage(docs.map(itemOf), { count: Limits.inappItemsPerUser }, now);
    if (keep.length === docs.length) return;
    const kept = new Set(keep.map((item) => item.id));
    for (const doc of docs)
      if (!kept.has(doc.id)) await this.items.remove([...scopeKey(scope), userId, doc.id]);
  }
}
