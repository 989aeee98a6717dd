import { type DigestItem, digestItemSchema, MAX_DIGEST_ITEMS, type TenantScope } from '@notify/domain';
import type { Buffers, Cache } from './cache.port';

export interface DigestWindowLimits {
  /** UTF-8 bytes of the sends one window holds. */
  readonly windowBytes: number;
  /** UTF-8 bytes of the sends all windows of one environment hold together. */
  readonly environmentBytes: number;
}

export type HoldOutcome = 'held' | 'window-full' | 'environment-full';

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
 */
export class DigestWindows {
  constructor(
    private readonly store: Buffers & Pick<Cache, 'get' | 'delete'>,
    readonly limits: DigestWindowLimits,
  ) {}

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
