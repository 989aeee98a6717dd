import { Injectable } from '@nestjs/common';
import { NotificationTypeChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';

/**
 * Tells the routers an environment's notification types or templates changed, after the change
 * is stored, so sends are routed and rendered by the new ones on every replica within moments
 * (a failed announcement is logged: routers re-read them within 5 s anyway). Every writer of
 * types or templates through the API announces here, once its first write succeeded.
 */
@Injectable()
export class TypeChanges {
  constructor(
    private readonly store: NotificationTypeChangesStore,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  announce(scope: TenantScope): Promise<void> {
    return this.store.announceStored(scope, this.logger);
  }
}
