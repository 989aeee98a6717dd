import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EnvironmentCache, NotificationTypeChangesStore } from '@notify/cache';
import type { Channel, NotificationType, Template, TenantScope } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { NotificationTypeRepository, TemplateRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { templateCacheBudget } from './template-cache-budget';

interface TemplateKey {
  readonly notificationId: string;
  readonly channel: Channel;
  readonly templateId: string;
}

/**
 * The fields of a notification type that routing, digests and dispatch read, and all the cache
 * holds of a type: never its title or sub-notifications (up to MAX_SUB_NOTIFICATIONS of them),
 * which would let a tenant creating types pin far more memory than routing uses.
 */
const ROUTED_FIELDS = [
  'notificationId',
  'channels',
  'enabled',
  'options',
  'urgent',
  'quietHours',
  'deduplication',
  'throttling',
  'retention',
  'defaultTemplates',
] as const satisfies readonly (keyof NotificationType)[];

export type RoutedType = Pick<NotificationType, (typeof ROUTED_FIELDS)[number]>;

function routedType(type: NotificationType): RoutedType {
  return Object.fromEntries(
    ROUTED_FIELDS.filter((field) => type[field] !== undefined).map((field) => [field, type[field]]),
  ) as unknown as RoutedType;
}

/** Two bytes a character of what is held, as the compiled templates' bound counts. */
const bytesOf = (value: RoutedType | Template | undefined) =>
  value === undefined ? 0 : 2 * JSON.stringify(value).length;

/**
 * The notification types (their routing fields) and templates routing reads for every send, each
 * read at most once per 5 s per process (a missing one is cached too), each cache bounded by its
 * share of TEMPLATE_CACHE_MB (see templateCacheBudget). A change of either through the API is
 * announced and stales the environment's entries on every replica, so sends use the new ones
 * within moments.
 */
@Injectable()
export class TypeCache implements OnModuleInit {
  private readonly typeCache: EnvironmentCache<RoutedType | undefined, string>;
  private readonly templateCache: EnvironmentCache<Template | undefined, TemplateKey>;

  constructor(
    private readonly types: NotificationTypeRepository,
    templates: TemplateRepository,
    changes: NotificationTypeChangesStore,
    @InjectClock() clock: Clock,
    @InjectConfig() config: AppConfig,
  ) {
    const budget = templateCacheBudget(config);
    this.typeCache = new EnvironmentCache({
      changes,
      clock,
      load: async (scope, notificationId) => {
        const type = await types.get(scope, notificationId);
        return type === undefined ? undefined : routedType(type);
      },
      keyOf: (notificationId) => notificationId,
      weigh: bytesOf,
      maxWeight: budget.types,
    });
    this.templateCache = new EnvironmentCache({
      changes,
      clock,
      load: (scope, key) => templates.get(scope, key.notificationId, key.channel, key.templateId),
      keyOf: (key) => JSON.stringify([key.notificationId, key.channel, key.templateId]),
      weigh: bytesOf,
      maxWeight: budget.templates,
    });
  }

  async onModuleInit(): Promise<void> {
    await Promise.all([this.typeCache.listen(), this.templateCache.listen()]);
  }

  type(scope: TenantScope, notificationId: string): Promise<RoutedType | undefined> {
    return this.typeCache.get(scope, notificationId);
  }

  /**
   * The type a send refers to, created on first use (concurrent first sends, on any replica,
   * create it once: see NotificationTypeRepository.ensure); the next send reads it again.
   */
  async ensure(
    scope: TenantScope,
    notificationId: string,
    channels: readonly Channel[],
    now: string,
  ): Promise<RoutedType> {
    const type = await this.types.ensure(scope, notificationId, channels, now);
    this.typeCache.forget(scope, notificationId);
    return routedType(type);
  }

  template(scope: TenantScope, key: TemplateKey): Promise<Template | undefined> {
    return this.templateCache.get(scope, key);
  }
}
