import {
  type Channel,
  type DeliveryMode,
  type DigestItem,
  digestDueSchema,
  digestItemSchema,
  MAX_DIGEST_ITEMS,
  Queues,
  type TenantScope,
} from '@notify/domain';
import type { z } from 'zod';
import type { CoordinationStore } from '../cache.port';

export interface DigestWindowLimits {
  /** UTF-8 bytes of the sends one window holds. */
  readonly windowBytes: number;
  /** UTF-8 bytes of the sends all windows of one environment hold together. */
  readonly environmentBytes: number;
}

export type HoldOutcome = 'held' | 'window-full' | 'environment-full';

/** The sends that go out as one digest: one user's, of one type, on one channel and mode. */
export interface DigestGroup extends TenantScope {
  readonly userId: string;
  readonly notificationId: string;
  readonly channel: Channel;
  readonly mode: DeliveryMode;
  /** A batching window's key value (its sends with another value make another digest). */
  readonly batch?: string;
}

export type DigestDue = z.infer<typeof digestDueSchema>;

/** A closed window claimed for release; `due` is missing when its queue entry does not parse. */
export interface ClaimedDigest {
  readonly id: string;
  readonly claimToken: string;
  readonly payload: string;
  readonly due?: DigestDue;
}

/** Held sends outlive their window by a day, in case its release is late. */
const DAY_MS = 86_400_000;

/** Sends read per store call when a window is released: memory is one page plus what was kept. */
const PAGE = 100;

/**
 * Windows held before sends became records of their own were one JSON array under the key
 * `batch/<group>/<dueAt>`, which was also their release's window name. They are read (once, at
 * release) and deleted, so sends held across the upgrade are still sent.
 */
const LEGACY_PREFIX = 'batch/';

/**
 * The sends held for digests and batching windows, each its own record in the coordination
 * store's buffers (one per window, pooled per environment): holding one more send never reads or
 * rewrites the others, a window holds at most MAX_DIGEST_ITEMS sends and `windowBytes`, an
 * environment `environmentBytes`, so no tenant can make a release (or a restart) run out of memory.
 * Each window's release waits in the digests delayed queue until it closes.
 */
export class DigestWindowsStore {
  constructor(
    private readonly store: CoordinationStore,
    readonly limits: DigestWindowLimits,
  ) {}

  /**
   * When the group's batching window closes: the first send opens it for `windowMs`, the rest
   * join it until then.
   */
  async batchingWindowEnd(group: DigestGroup, now: number, windowMs: number): Promise<number> {
    const marker = `batch-window/${groupKey(group)}`;
    await this.store.setIfAbsent(marker, String(now + windowMs), windowMs);
    return Number((await this.store.get(marker)) ?? now + windowMs);
  }

  /** Holds a send in the group's window closing at `dueAt`, whose release is queued for then. */
  async holdUntil(group: DigestGroup, dueAt: number, item: DigestItem, now: number): Promise<HoldOutcome> {
    const window = `${groupKey(group)}/${dueAt}`;
    const held = await this.hold(group, window, item, Math.max(1, dueAt - now) + DAY_MS);
    if (held !== 'held') return held;
    const due: DigestDue = {
      key: window,
      accountId: group.accountId,
      envId: group.envId,
      channel: group.channel,
      mode: group.mode,
    };
    await this.store.schedule(Queues.digests, { id: window, dueAt, payload: JSON.stringify(due) });
    return held;
  }

  /** Claims up to `limit` windows closed at `now`, for `leaseMs` (unacknowledged, they come due again). */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<ClaimedDigest[]> {
    const claimed = await this.store.claimDue(Queues.digests, now, limit, leaseMs);
    return claimed.map(({ id, claimToken, payload }) => {
      const due = digestDueSchema.safeParse(parseJson(payload));
      return due.success ? { id, claimToken, payload, due: due.data } : { id, claimToken, payload };
    });
  }

  /** Queues the claimed window's release again, due at `now` (this claim no longer holds it). */
  async releaseAgain(claim: ClaimedDigest, now: number): Promise<void> {
    await this.store.schedule(Queues.digests, { id: claim.id, dueAt: now, payload: claim.payload });
  }

  /** The claimed window's release is done (a stale claim changes nothing). */
  async ack(claim: ClaimedDigest): Promise<void> {
    await this.store.ack(Queues.digests, claim.id, claim.claimToken);
  }

  /** Holds a send in `window` until released; holding the same tracking id again changes nothing. */
  async hold(scope: TenantScope, window: string, item: DigestItem, ttlMs: number): Promise<HoldOutcome> {
    const outcome = await this.store.append(
      pool(scope),
      window,
      { id: item.trackingId, value: JSON.stringify(item) },
      {
        maxItems: MAX_DIGEST_ITEMS,
        maxBytes: this.limits.windowBytes,
        poolMaxBytes: this.limits.environmentBytes,
      },
      ttlMs,
    );
    switch (outcome) {
      case 'appended':
      case 'present':
        return 'held';
      case 'buffer-full':
        return 'window-full';
      case 'pool-full':
        return 'environment-full';
    }
  }

  /**
   * The window's sends, oldest first, a page at a time; a record that does not parse is skipped and
   * counted. `items.length + unreadable` records were read: what `drop` takes.
   */
  async read(scope: TenantScope, window: string): Promise<{ items: DigestItem[]; unreadable: number }> {
    if (window.startsWith(LEGACY_PREFIX)) return this.readLegacy(window);
    const items: DigestItem[] = [];
    let unreadable = 0;
    for (let from = 0; from < MAX_DIGEST_ITEMS; from += PAGE) {
      const page = await this.store.readBuffer(pool(scope), window, from, PAGE);
      for (const value of page) {
        const item = parseItem(value);
        if (item === undefined) unreadable += 1;
        else items.push(item);
      }
      if (page.length < PAGE) break;
    }
    return { items, unreadable };
  }

  /**
   * Forgets the `released` first sends of a window, giving their bytes back to the environment;
   * answers how many sends were held after them (appended while the window was being released).
   */
  async drop(scope: TenantScope, window: string, released: number): Promise<number> {
    if (!window.startsWith(LEGACY_PREFIX)) return this.store.dropBuffer(pool(scope), window, released);
    await this.store.delete(window);
    return 0;
  }

  private async readLegacy(window: string): Promise<{ items: DigestItem[]; unreadable: number }> {
    const held = parseJson(await this.store.get(window));
    if (!Array.isArray(held)) return { items: [], unreadable: held === undefined ? 0 : 1 };
    const items: DigestItem[] = [];
    for (const value of held.slice(0, MAX_DIGEST_ITEMS)) {
      const parsed = digestItemSchema.safeParse(value);
      if (parsed.success) items.push(parsed.data);
    }
    return { items, unreadable: held.length - items.length };
  }
}

const groupKey = (group: DigestGroup) =>
  [
    group.accountId,
    group.envId,
    group.userId,
    group.notificationId,
    group.channel,
    group.mode,
    group.batch ?? '',
  ]
    .map(encodeURIComponent)
    .join('/');

const pool = (scope: TenantScope) =>
  `digests/${encodeURIComponent(scope.accountId)}/${encodeURIComponent(scope.envId)}`;

function parseItem(value: string): DigestItem | undefined {
  const parsed = digestItemSchema.safeParse(parseJson(value));
  return parsed.success ? parsed.data : undefined;
}

function parseJson(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}
