import { Injectable } from '@nestjs/common';
import { ComponentChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';

/**
 * Tells the routers an environment's components changed, after the change is stored (a failed
 * announcement is logged: routers re-read an environment's components within seconds anyway).
 */
@Injectable()
export class ComponentChanges {
  constructor(
    private readonly store: ComponentChangesStore,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  announce(scope: TenantScope): Promise<void> {
    return this.store.announceStored(scope, this.logger);
  }
}
