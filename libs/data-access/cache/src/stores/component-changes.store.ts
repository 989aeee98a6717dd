import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/** Message `accountId/envId`. */
const COMPONENTS_CHANGED_CHANNEL = 'components/changed';

/**
 * Announcements that an environment's email components changed (the gateway announces on every
 * create, update and delete; every router listens): its cached components are dropped at once, so
 * the next render of every template that uses one sees the change, on every replica.
 */
@Injectable()
export class ComponentChangesStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  announce(scope: TenantScope): Promise<void> {
    return this.coordination.publish(COMPONENTS_CHANGED_CHANNEL, `${scope.accountId}/${scope.envId}`);
  }

  /** Calls `listener` with each environment announced from now on; answers how to stop listening. */
  listen(listener: (scope: TenantScope) => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(COMPONENTS_CHANGED_CHANNEL, (message) => {
      const [accountId, envId] = message.split('/');
      if (accountId && envId) listener({ accountId, envId });
    });
  }
}
