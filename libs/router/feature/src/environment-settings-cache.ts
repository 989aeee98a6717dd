import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EnvironmentCache, EnvironmentSettingsChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import type { Clock } from '@notify/util';

type Environment = Awaited<ReturnType<AccountRepository['getEnvironment']>>;

/**
 * Each environment's record (its disabled channels, its tracking switch), which routing reads for
 * every send, read at most once per 5 s per process. A change through the API is announced and
 * drops the entry at once on every replica, so the next send is routed by the new settings.
 */
@Injectable()
export class EnvironmentSettingsCache implements OnModuleInit {
  private readonly cache: EnvironmentCache<Environment>;

  constructor(
    accounts: AccountRepository,
    changes: EnvironmentSettingsChangesStore,
    @InjectClock() clock: Clock,
  ) {
    this.cache = new EnvironmentCache<Environment>({
      changes,
      clock,
      load: (scope) => accounts.getEnvironment(scope.accountId, scope.envId),
    });
  }

  async onModuleInit(): Promise<void> {
    await this.cache.listen();
  }

  environment(scope: TenantScope): Promise<Environment> {
    return this.cache.get(scope);
  }
}
