import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EnvironmentCache, ProviderSettingsChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/**
 * What ProviderSettings reads of an environment, and all this cache holds of it: never its
 * secret or anything else of the environment. The settings stay sealed here; each read opens one.
 */
export interface StoredProviderSettings {
  /** Each setting sealed, by its kind's name. */
  readonly providerSettings?: Readonly<Record<string, string>>;
  /** A relay as 0.1 stored it, in plain text, until ProviderSettings upgrades it. */
  readonly smtpUrl?: string;
}

/**
 * Bounds the cache's memory: a sealed push credential weighs a few KiB, so this keeps thousands
 * of environments; an environment whose settings alone outweigh it is read each time.
 */
const MAX_WEIGHT = 16 * 1024 * 1024;

/**
 * Each environment's stored provider settings, which every delivery reads, read at most once per
 * 5 s per process (a missing environment is cached too, as undefined). Every write of a setting
 * goes through `changed`: this process reads the environment again at once, and the announcement
 * stales it on every other replica, so deliveries use the new setting within moments.
 */
@Injectable()
export class ProviderSettingsCache implements OnModuleInit {
  private readonly cache: EnvironmentCache<StoredProviderSettings | undefined>;

  constructor(
    accounts: AccountRepository,
    private readonly changes: ProviderSettingsChangesStore,
    @InjectClock() clock: Clock,
    @InjectLogger() private readonly logger: Logger,
  ) {
    this.cache = new EnvironmentCache<StoredProviderSettings | undefined>({
      changes,
      clock,
      load: async (scope) => {
        const environment = await accounts.getEnvironmentDocument(scope.accountId, scope.envId);
        if (environment === undefined) return undefined;
        const { providerSettings, smtpUrl } = environment;
        return {
          ...(providerSettings !== undefined ? { providerSettings: { ...providerSettings } } : {}),
          ...(smtpUrl !== undefined ? { smtpUrl } : {}),
        };
      },
      weigh: (stored) =>
        Object.values(stored?.providerSettings ?? {}).reduce(
          (bytes, sealed) => bytes + sealed.length,
          stored?.smtpUrl?.length ?? 0,
        ),
      maxWeight: MAX_WEIGHT,
    });
  }

  async onModuleInit(): Promise<void> {
    await this.cache.listen();
  }

  stored(scope: TenantScope): Promise<StoredProviderSettings | undefined> {
    return this.cache.get(scope);
  }

  /** Called after every write of a setting of the environment, once it is stored. */
  async changed(scope: TenantScope): Promise<void> {
    this.cache.forget(scope);
    await this.changes.announceStored(scope, this.logger);
  }
}
