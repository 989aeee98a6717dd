import { Inject, Injectable } from '@nestjs/common';
import { addUsage, type BillingCycle, type CycleUsage, type MeteredItem, NO_USAGE } from '@notify/domain';
import { eachConcurrently } from '@notify/util';
import { Collections, type UsageDoc, type UsageLedgerDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

/** A metered delivery event and where it sits on the bus. */
export interface MeteredEntry {
  readonly item: MeteredItem;
  /** YYYY-MM of the event: the ledger keeps its rows by month. */
  readonly month: string;
  readonly partition: number;
  readonly offset: string;
}

export type StoredUsage = CycleUsage & BillingCycle;

/** What a claim found: the entries that count, and those among them claimed by that very call. */
export interface Claims {
  readonly counted: MeteredEntry[];
  readonly claimedNow: ReadonlySet<MeteredEntry>;
}

/** Ledger claims written at once (each is one single-document insert). */
const CLAIMS_AT_ONCE = 32;

/**
 * Usage per organization and billing cycle, counted exactly once from an at-least-once stream
 * with single-document writes only. Two guards, one per way an event can come twice:
 * - a redelivery (the consumer died before committing its offsets) comes at the same bus position:
 *   each cycle's usage stores, per partition, the offset of the last event it applied, and skips
 *   anything at or before it;
 * - a republished event (same key, later position) is stopped by the ledger: the first position a
 *   key was seen at claims it, and only that position counts.
 * A redelivery after the ledger claim but before the usage write finds its own claim and counts.
 * The watermark only guards entries whose claim existed before: one claimed in the very call
 * that applies it was never applied, so it counts even below the watermark (the bus's offsets went
 * back: the topic was recreated or the embedded log wiped), and moves the watermark to it.
 */
@Injectable()
export class UsageRepository {
  private readonly ledger: DocumentCollection<UsageLedgerDoc>;
  private readonly usage: DocumentCollection<UsageDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.ledger = store.collection(Collections.usageLedger);
    this.usage = store.collection(Collections.usage);
  }

  /** The entries that count: claimed now, or claimed earlier at this very bus position. */
  async claim(entries: readonly MeteredEntry[]): Promise<MeteredEntry[]> {
    return (await this.claimEach(entries)).counted;
  }

  /** As `claim`, also telling which entries were claimed by this call (so never applied yet). */
  async claimEach(entries: readonly MeteredEntry[]): Promise<Claims> {
    const outcomes = new Array<'new' | 'here' | 'elsewhere'>(entries.length).fill('elsewhere');
    await eachConcurrently(
      entries.map((entry, index) => ({ entry, index })),
      CLAIMS_AT_ONCE,
      async ({ entry, index }) => {
        const row = {
          month: entry.month,
          key: entry.item.key,
          partition: entry.partition,
          offset: entry.offset,
        };
        if (await this.ledger.insert(row)) outcomes[index] = 'new';
        else {
          const first = await this.ledger.get([row.month, row.key]);
          if (first?.partition === row.partition && first.offset === row.offset) outcomes[index] = 'here';
        }
      },
    );
    return {
      counted: entries.filter((_, index) => outcomes[index] !== 'elsewhere'),
      claimedNow: new Set(entries.filter((_, index) => outcomes[index] === 'new')),
    };
  }

  /**
   * Gives back the ledger claim of an event whose batch was dead-lettered, when the claim's
   * position was never applied to the organization's cycle (its partition's watermark is below
   * it): a replay of the event, at a new bus position, then counts. A claim the watermark passed
   * may have been applied and is kept, so nothing counts twice. True when given back.
   */
  async release(
    entry: Pick<MeteredEntry, 'item' | 'month'>,
    organizationId: string,
    cycleStart: string,
  ): Promise<boolean> {
    const key = [entry.month, entry.item.key];
    const claim = await this.ledger.get(key);
    if (claim === undefined) return false;
    const mark = (await this.usage.get([organizationId, cycleStart]))?.watermarks[claim.partition];
    if (mark !== undefined && BigInt(claim.offset) <= BigInt(mark)) return false;
    return this.ledger.remove(
      key,
      (current) => current.partition === claim.partition && current.offset === claim.offset,
    );
  }

  /**
   * Adds claimed entries (in bus order) to the cycle's usage, skipping those at or before their
   * partition's watermark unless `claimedNow` holds them, and answers the cycle's usage afterwards.
   */
  async apply(
    organizationId: string,
    cycle: BillingCycle,
    entries: readonly MeteredEntry[],
    now: string,
    claimedNow: ReadonlySet<MeteredEntry> = new Set(),
  ): Promise<StoredUsage> {
    const stored = await this.usage.modify([organizationId, cycle.start], (current) => {
      const watermarks = { ...(current?.watermarks ?? {}) };
      const fresh = entries.filter((entry) => {
        const mark = watermarks[entry.partition];
        const applied = mark !== undefined && BigInt(entry.offset) <= BigInt(mark);
        if (applied && !claimedNow.has(entry)) return false;
        watermarks[entry.partition] = entry.offset;
        return true;
      });
      if (fresh.length === 0 && current !== undefined) return undefined;
      const usage = addUsage(
        current ?? NO_USAGE,
        fresh.map((entry) => entry.item),
      );
      return {
        organizationId,
        cycleStart: cycle.start,
        cycleEnd: cycle.end,
        ...usage,
        channels: { ...usage.channels },
        watermarks,
        updatedAt: now,
      };
    });
    return toUsage(stored ?? { ...emptyDoc(organizationId, cycle), updatedAt: now });
  }

  async get(organizationId: string, cycleStart: string): Promise<StoredUsage | undefined> {
    const doc = await this.usage.get([organizationId, cycleStart]);
    return doc === undefined ? undefined : toUsage(doc);
  }

  /** The organization's cycles starting from `from` to `to` (YYYY-MM-DD, inclusive), oldest first. */
  async list(organizationId: string, from: string, to: string): Promise<StoredUsage[]> {
    const docs: UsageDoc[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.usage.list([organizationId], {
        ...(after !== undefined ? { after } : {}),
        limit: 100,
      });
      docs.push(...page.filter((doc) => doc.cycleStart >= from && doc.cycleStart <= to));
      const last = page.at(-1);
      if (page.length < 100 || last === undefined || last.cycleStart > to) return docs.map(toUsage);
      after = last.cycleStart;
    }
  }

  /** Drops the ledger rows of the given months (YYYY-MM); answers how many went. */
  async pruneLedger(months: readonly string[]): Promise<number> {
    let removed = 0;
    for (const month of months) removed += await this.ledger.removeAll([month]);
    return removed;
  }
}

const emptyDoc = (organizationId: string, cycle: BillingCycle): Omit<UsageDoc, 'updatedAt'> => ({
  organizationId,
  cycleStart: cycle.start,
  cycleEnd: cycle.end,
  ...NO_USAGE,
  channels: {},
  watermarks: {},
});

const toUsage = (doc: UsageDoc): StoredUsage => ({
  start: doc.cycleStart,
  end: doc.cycleEnd,
  messages: doc.messages,
  costMicros: doc.costMicros,
  costSmsMicros: doc.costSmsMicros,
  costCallMicros: doc.costCallMicros,
  channels: { ...doc.channels },
});
