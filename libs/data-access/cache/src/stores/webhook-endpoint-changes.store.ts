import { Inject, Injectable } from '@nestjs/common';
import { type TenantScope, WEBHOOK_ENDPOINTS_CHANGED_CHANNEL } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/**
 * Announcements that an environment's webhook endpoints changed through the API, so every
 * dispatcher drops its cached copy at once. Environments are named by their cache key
 * (`accountId/envId`, see `webhookScopeKey`).
 */
@Injectable()
export class WebhookEndpointChangesStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  announce(scope: TenantScope): Promise<void> {
    return this.coordination.publish(WEBHOOK_ENDPOINTS_CHANGED_CHANNEL, webhookScopeKey(scope));
  }

  /** Resolves once subscribed; the returned function unsubscribes. */
  subscribe(listener: (scopeKey: string) => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(WEBHOOK_ENDPOINTS_CHANGED_CHANNEL, listener);
  }
}

/** The name an environment's change announcement carries. */
export const webhookScopeKey = (scope: TenantScope) => `${scope.accountId}/${scope.envId}`;
