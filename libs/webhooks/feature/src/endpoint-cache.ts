import { Injectable, type OnModuleInit } from '@nestjs/common';
import { WebhookEndpointChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { InjectClock, SecretBox } from '@notify/platform';
import { type Clock, LruCache } from '@notify/util';
import { WebhookEndpointRepository } from '@notify/store';

/** An endpoint as the dispatcher needs it, its secret opened. */
export interface Destination {
  readonly endpointId: string;
  readonly webhook: string;
  readonly events: ReadonlySet<string>;
  readonly secret: string;
}

/** How long an environment's endpoints are trusted if a change announcement was lost. */
const TTL_MS = 5_000;

/**
 * Each environment's webhook endpoints, read at most once per TTL_MS per process: the dispatcher
 * sees every delivery event, and most environments have no endpoint at all (cached too). A change
 * through the API is announced on the coordination store and drops the entry at once.
 */
@Injectable()
export class EndpointCache implements OnModuleInit {
  private readonly cache = new LruCache<string, { at: number; destinations: Promise<Destination[]> }>({
    maxEntries: 10_000,
  });

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly box: SecretBox,
    private readonly changes: WebhookEndpointChangesStore,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.changes.listen((scope) => this.cache.delete(cacheKey(scope)));
  }

  destinations(scope: TenantScope): Promise<Destination[]> {
    const key = cacheKey(scope);
    const now = this.clock.now();
    const cached = this.cache.get(key);
    if (cached !== undefined && now - cached.at < TTL_MS) return cached.destinations;
    const destinations = this.load(scope);
    this.cache.set(key, { at: now, destinations });
    destinations.catch(() => this.cache.delete(key));
    return destinations;
  }

  private async load(scope: TenantScope): Promise<Destination[]> {
    return (await this.endpoints.list(scope)).map((endpoint) => ({
      endpointId: endpoint.endpointId,
      webhook: endpoint.webhook,
      events: new Set(endpoint.events),
      secret: this.box.open(endpoint.secret, 'webhook-secret'),
    }));
  }
}

const cacheKey = (scope: TenantScope) => `${scope.accountId}/${scope.envId}`;
