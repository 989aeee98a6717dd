import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { Collections, type SandboxOutboxDoc } from '../collections';
import {
  DOCUMENT_STORE,
  type DocumentCollection,
  type DocumentStore,
  MAX_PAGE_LIMIT,
} from '../document-store.port';
import { scopeKey, scopeOf } from './scope';

/** Messages kept per environment and channel: the newest, older ones overwritten. */
export const SANDBOX_OUTBOX_KEEP = 500;
const COUNTER = '#seq';
/** Not a channel: where minted web push subscriptions' keys are kept (never listed as messages). */
const SUBSCRIPTION_KEYS = '#web_push_keys';

/**
 * What test environments' sandbox peers received (what `/dev/outbox` shows), shared by every process:
 * senders write, the gateway's /dev/outbox reads. Each environment and channel is a ring of
 * SANDBOX_OUTBOX_KEEP slots numbered by an atomic counter, so it is bounded by construction however
 * much a test environment sends.
 */
@Injectable()
export class SandboxOutboxRepository {
  private readonly docs: DocumentCollection<SandboxOutboxDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.docs = store.collection(Collections.sandboxOutbox);
  }

  async add(scope: TenantScope, channel: string, message: Record<string, unknown>): Promise<void> {
    const prefix = [...scopeKey(scope), channel];
    // The number this write took: `modify` re-runs the change on a conflict, so its last run is ours
    // (what `modify` resolves to may already be a later writer's).
    let seq = 0;
    await this.docs.modify([...prefix, COUNTER], (current) => {
      seq = (current?.seq ?? 0) + 1;
      return { ...scopeOf(scope), channel, slot: COUNTER, seq };
    });
    const slot = `slot-${seq % SANDBOX_OUTBOX_KEEP}`;
    await this.docs.modify([...prefix, slot], () => ({ ...scopeOf(scope), channel, slot, seq, message }));
  }

  /**
   * Keeps the browser-side keys of a web push subscription minted for a test environment, so the
   * sandbox web push peer of whichever sender process takes the push can decrypt it.
   */
  async keepSubscriptionKeys(scope: TenantScope, id: string, keys: Record<string, string>): Promise<void> {
    await this.docs.modify([...scopeKey(scope), SUBSCRIPTION_KEYS, id], () => ({
      ...scopeOf(scope),
      channel: SUBSCRIPTION_KEYS,
      slot: id,
      seq: 0,
      message: keys,
    }));
  }

  async subscriptionKeys(scope: TenantScope, id: string): Promise<Record<string, string> | undefined> {
    const doc = await this.docs.get([...scopeKey(scope), SUBSCRIPTION_KEYS, id]);
    return doc?.message as Record<string, string> | undefined;
  }

  /** Newest first. */
  async list(scope: TenantScope, channel: string): Promise<Record<string, unknown>[]> {
    const docs = await this.docs.list([...scopeKey(scope), channel], { limit: MAX_PAGE_LIMIT });
    return docs
      .filter((doc) => doc.slot !== COUNTER && doc.message !== undefined)
      .sort((a, b) => b.seq - a.seq)
      .map((doc) => doc.message ?? {});
  }

  /** Empties the channel's outbox; answers how many messages it held. */
  async clear(scope: TenantScope, channel: string): Promise<number> {
    const held = (await this.list(scope, channel)).length;
    await this.docs.removeAll([...scopeKey(scope), channel]);
    return held;
  }
}
