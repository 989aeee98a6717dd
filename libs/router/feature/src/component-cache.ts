import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ComponentChangesStore } from '@notify/cache';
import type { ComponentSources, TenantScope } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { ComponentRepository } from '@notify/store';
import { type Clock, LruCache } from '@notify/util';

/** How long an environment's components are trusted if a change announcement was lost. */
const TTL_MS = 5_000;

/**
 * Each environment's email components, read at most once per TTL_MS per process (most
 * environments have none, cached too). A change through the API is announced on the coordination
 * store and drops the entry at once on every replica, so the next render uses the new HTML; each
 * load is a new map, which the renderer keys its partials by.
 */
@Injectable()
export class ComponentCache implements OnModuleInit {
  private readonly cache = new LruCache<string, { at: number; sources: Promise<ComponentSources> }>({
    maxEntries: 10_000,
  });

  constructor(
    private readonly components: ComponentRepository,
    private readonly changes: ComponentChangesStore,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.changes.listen((scope) => this.cache.delete(cacheKey(scope)));
  }

  sources(scope: TenantScope): Promise<ComponentSources> {
    const key = cacheKey(scope);
    const now = this.clock.now();
    const cached = this.cache.get(key);
    if (cached !== undefined && now - cached.at < TTL_MS) return cached.sources;
    const sources = this.load(scope);
    this.cache.set(key, { at: now, sources });
    sources.catch(() => this.cache.delete(key));
    return sources;
  }

  private async load(scope: TenantScope): Promise<ComponentSources> {
    return new Map((await this.components.list(scope)).map((c) => [c.componentId, c.html]));
  }
}

const cacheKey = (scope: TenantScope) => `${scope.accountId}/${scope.envId}`;
