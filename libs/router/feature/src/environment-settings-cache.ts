import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EnvironmentCache, EnvironmentSettingsChangesStore } from '@notify/cache';
import type { Environment, TenantScope } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/**
 * What routing reads of an environment, and all this cache holds of it: never its secret, sealed
 * provider settings or key count, which routing has no use for and whose other writers do not
 * announce.
 */
export type EnvironmentSettings = Pick<Environment, 'disabledChannels' | 'emailTracking'>;

/**
 * Each environment's routing settings (its disabled channels, its tracking switch), which routing
 * reads for every send, read at most once per 5 s per process (a missing environment is cached
 * too, as undefined). A change of either through the API is announced and stales the entry on
 * every replica, so sends are routed by the new settings within moments.
 */
@Injectable()
export class EnvironmentSettingsCache implements OnModuleInit {
  private readonly cache: EnvironmentCache<EnvironmentSettings | undefined>;

  constructor(
    accounts: AccountRepository,
    changes: EnvironmentSettingsChangesStore,
    @InjectClock() clock: Clock,
  ) {
    this.cache = new EnvironmentCache<EnvironmentSettings | undefined>({
      changes,
      clock,
      load: async (scope) => {
        const environment = await accounts.getEnvironment(scope.accountId, scope.envId);
        if (environment === undefined) return undefined;
        const { disabledChannels, emailTracking } = environment;
        return emailTracking === undefined ? { disabledChannels } : { disabledChannels, emailTracking };
      },
    });
  }

  async onModuleInit(): Promise<void> {
    await this.cache.listen();
  }

  environment(scope: TenantScope): Promise<EnvironmentSettings | undefined> {
    return this.cache.get(scope);
  }
}
