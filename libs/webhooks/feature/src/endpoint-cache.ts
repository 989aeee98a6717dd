import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EnvironmentCache, WebhookEndpointChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { InjectClock, SecretBox } from '@notify/platform';
import type { Clock } from '@notify/util';
import { WebhookEndpointRepository } from '@notify/store';

/** An endpoint as the dispatcher needs it, its secret opened. */
export interface Destination {
  readonly endpointId: string;
  readonly webhook: string;
  readonly events: ReadonlySet<string>;
  readonly secret: string;
}

/**
 * Each environment's webhook endpoints, read at most once per 5 s per process: the dispatcher
 * sees every delivery event, and most environments have no endpoint at all (cached too). A change
 * through the API is announced on the coordination store and drops the entry at once.
 */
@Injectable()
export class EndpointCache implements OnModuleInit {
  private readonly cache: EnvironmentCache<Destination[]>;

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly box: SecretBox,
    changes: WebhookEndpointChangesStore,
    @InjectClock() clock: Clock,
  ) {
    this.cache = new EnvironmentCache({ changes, clock, load: (scope) => this.load(scope) });
  }

  async onModuleInit(): Promise<void> {
    await this.cache.listen();
  }

  destinations(scope: TenantScope): Promise<Destination[]> {
    return this.cache.get(scope);
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
