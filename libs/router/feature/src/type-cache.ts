import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EnvironmentCache, NotificationTypeChangesStore } from '@notify/cache';
import type { Channel, NotificationType, Template, TenantScope } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { NotificationTypeRepository, TemplateRepository } from '@notify/store';
import type { Clock } from '@notify/util';

interface TemplateKey {
  readonly notificationId: string;
  readonly channel: Channel;
  readonly templateId: string;
}

/** Two bytes a character of the stored template, as the compiled templates' bound counts. */
const bytesOf = (template: Template | undefined) =>
  template === undefined ? 0 : 2 * JSON.stringify(template).length;

/**
 * The notification types and templates routing reads for every send, each read at most once per
 * 5 s per process (a missing one is cached too); templates in a cache bounded by bytes like the
 * compiled ones (TEMPLATE_CACHE_MB). A change of either through the API is announced and drops
 * the environment's entries at once on every replica, so the next send uses the new ones.
 */
@Injectable()
export class TypeCache implements OnModuleInit {
  private readonly typeCache: EnvironmentCache<NotificationType | undefined, string>;
  private readonly templateCache: EnvironmentCache<Template | undefined, TemplateKey>;

  constructor(
    private readonly types: NotificationTypeRepository,
    templates: TemplateRepository,
    changes: NotificationTypeChangesStore,
    @InjectClock() clock: Clock,
    @InjectConfig() config: AppConfig,
  ) {
    this.typeCache = new EnvironmentCache({
      changes,
      clock,
      load: (scope, notificationId) => types.get(scope, notificationId),
      keyOf: (notificationId) => notificationId,
    });
    this.templateCache = new EnvironmentCache({
      changes,
      clock,
      load: (scope, key) => templates.get(scope, key.notificationId, key.channel, key.templateId),
      keyOf: (key) => JSON.stringify([key.notificationId, key.channel, key.templateId]),
      weigh: bytesOf,
      maxWeight: config.limits.templateCacheBytes,
    });
  }

  async onModuleInit(): Promise<void> {
    await Promise.all([this.typeCache.listen(), this.templateCache.listen()]);
  }

  type(scope: TenantScope, notificationId: string): Promise<NotificationType | undefined> {
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
  ): Promise<NotificationType> {
    const type = await this.types.ensure(scope, notificationId, channels, now);
    this.typeCache.forget(scope, notificationId);
    return type;
  }

  template(scope: TenantScope, key: TemplateKey): Promise<Template | undefined> {
    return this.templateCache.get(scope, key);
  }
}
