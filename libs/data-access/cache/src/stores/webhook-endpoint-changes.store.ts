import { Inject, Injectable } from '@nestjs/common';
import { type TenantScope, WEBHOOK_ENDPOINTS_CHANGED_CHANNEL } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/**
 * Announcements that an environment's webhook endpoints changed (the gateway announces, every
 * dispatcher listens): a cached endpoint list is dropped at once instead of at its expiry.
 */
@Injectable()
export class WebhookEndpointChangesStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  announce(scope: TenantScope): Promise<void> {
    return this.coordination.publish(WEBHOOK_ENDPOINTS_CHANGED_CHANNEL, `${scope.accountId}/${scope.envId}`);
  }

  /** Calls `listener` with each environment announced from now on; answers how to stop listening. */
  listen(listener: (scope: TenantScope) => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(WEBHOOK_ENDPOINTS_CHANGED_CHANNEL, (message) => {
      const [accountId, envId] = message.split('/');
      if (accountId && envId) listener({ accountId, envId });
    });
  }
}
