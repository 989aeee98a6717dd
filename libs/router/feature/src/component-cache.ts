import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ComponentChangesStore, EnvironmentCache } from '@notify/cache';
import type { ComponentSources, TenantScope } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { ComponentRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { templateCacheBudget } from './template-cache-budget';

/** The ids and HTML held, two bytes a character. */
const bytesOf = (sources: ComponentSources) =>
  [...sources].reduce((total, [id, html]) => total + 2 * (id.length + html.length), 0);

/**
 * Each environment's email components (their ids and HTML only), read at most once per 5 s per
 * process (most environments have none, cached too), in a cache bounded by bytes (its share of
 * TEMPLATE_CACHE_MB, see templateCacheBudget): an environment whose components outweigh it is read
 * for each render instead of kept. A change through the API is announced and drops the entry at once on
 * every replica, so the next render uses the new HTML; each load is a new map, which the renderer
 * keys its partials by.
 */
@Injectable()
export class ComponentCache implements OnModuleInit {
  private readonly cache: EnvironmentCache<ComponentSources>;

  constructor(
    components: ComponentRepository,
    changes: ComponentChangesStore,
    @InjectClock() clock: Clock,
    @InjectConfig() config: AppConfig,
  ) {
    this.cache = new EnvironmentCache<ComponentSources>({
      changes,
      clock,
      load: async (scope) => new Map((await components.list(scope)).map((c) => [c.componentId, c.html])),
      weigh: bytesOf,
      maxWeight: templateCacheBudget(config).components,
    });
  }

  async onModuleInit(): Promise<void> {
    await this.cache.listen();
  }

  sources(scope: TenantScope): Promise<ComponentSources> {
    return this.cache.get(scope);
  }
}
