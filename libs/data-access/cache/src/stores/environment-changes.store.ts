import type { TenantScope } from '@notify/domain';
import type { Logger } from '@notify/platform';
import type { CoordinationStore } from '../cache.port';

/**
 * Announcements, on one coordination channel, that something an environment holds changed (the
 * gateway announces, every process caching it listens): each listener drops its cached copy at
 * once instead of at its expiry. Each kind of change is a subclass naming its channel. Messages
 * are `accountId/envId`.
 */
export abstract class EnvironmentChangesStore {
  protected constructor(
    private readonly coordination: CoordinationStore,
    private readonly channel: string,
  ) {}

  announce(scope: TenantScope): Promise<void> {
    return this.coordination.publish(this.channel, `${scope.accountId}/${scope.envId}`);
  }

  /**
   * Announces a change the caller has stored. A failed announcement is logged, not answered as a
   * failure: the change is saved, and every cached copy of it expires within seconds anyway (see
   * EnvironmentCache).
   */
  async announceStored(scope: TenantScope, logger: Logger): Promise<void> {
    try {
      await this.announce(scope);
    } catch (error) {
      logger.warn(
        { err: error, accountId: scope.accountId, envId: scope.envId, channel: this.channel },
        'could not announce a stored change; caches see it when they expire',
      );
    }
  }

  /** Calls `listener` with each environment announced from now on; answers how to stop listening. */
  listen(listener: (scope: TenantScope) => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(this.channel, (message) => {
      const [accountId, envId] = message.split('/');
      if (accountId && envId) listener({ accountId, envId });
    });
  }
}
