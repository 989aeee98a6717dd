import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ComponentChangesStore } from '@notify/cache';
import type { ComponentSources, TenantScope } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { ComponentRepository } from '@notify/store';
import { type Clock, LruCache } from '@notify/util';

/** How long an environment's components are trusted if a change announcement was lost. */
const TTL_MS = 5_000;

interface Entry {
  readonly at: number;
  readonly sources: Promise<ComponentSources>;
  /** The HTML and ids held (two bytes a character); 0 while loading. */
  readonly bytes: number;
}

const bytesOf = (sources: ComponentSources) =>
  [...sources].reduce((total, [id, html]) => total + 2 * (id.length + html.length), 0);

/**
 * Each environment's email components (their ids and HTML only), read at most once per TTL_MS per
 * process (most environments have none, cached too), in a cache bounded by bytes like the compiled
 * templates' (TEMPLATE_CACHE_MB): an environment whose components outweigh it is read for each
 * render instead of kept. A change through the API is announced on the coordination store and
 * drops the entry at once on every replica, so the next render uses the new HTML; each load is a
 * new map, which the renderer keys its partials by.
 */
@Injectable()
export class ComponentCache implements OnModuleInit {
  private readonly cache: LruCache<string, Entry>;

  constructor(
    private readonly components: ComponentRepository,
    private readonly changes: ComponentChangesStore,
    @InjectClock() private readonly clock: Clock,
    @InjectConfig() config: AppConfig,
  ) {
    this.cache = new LruCache({
      maxEntries: 10_000,
      maxWeight: config.limits.templateCacheBytes,
      weigh: (entry) => entry.bytes,
    });
  }

  async onModuleInit(): Promise<void> {
    await this.changes.listen((scope) => this.cache.delete(cacheKey(scope)));
  }

  sources(scope: TenantScope): Promise<ComponentSources> {
    const key = cacheKey(scope);
    const now = this.clock.now();
    const cached = this.cache.get(key);
    if (cached !== undefined && now - cached.at < TTL_MS) return cached.sources;
    const entry: Entry = { at: now, sources: this.load(scope), bytes: 0 };
    this.cache.set(key, entry);
    // Weighed once loaded, unless dropped (or replaced) meanwhile.
    entry.sources.then(
      (sources) => {
        if (this.cache.get(key) === entry) this.cache.set(key, { ...entry, bytes: bytesOf(sources) });
      },
      () => {
        if (this.cache.get(key) === entry) this.cache.delete(key);
      },
    );
    return entry.sources;
  }

  private async load(scope: TenantScope): Promise<ComponentSources> {
    return new Map((await this.components.list(scope)).map((c) => [c.componentId, c.html]));
  }
}

const cacheKey = (scope: TenantScope) => `${scope.accountId}/${scope.envId}`;
