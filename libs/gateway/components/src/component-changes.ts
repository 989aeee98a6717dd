import { Injectable } from '@nestjs/common';
import { ComponentChangesStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';

/**
 * Tells the routers an environment's components changed, after the change is stored. An
 * announcement that fails is logged, not answered as a failure: the change is saved, and routers
 * re-read an environment's components within seconds (their cache expires) in any case.
 */
@Injectable()
export class ComponentChanges {
  constructor(
    private readonly store: ComponentChangesStore,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async announce(scope: TenantScope): Promise<void> {
    try {
      await this.store.announce(scope);
    } catch (error) {
      this.logger.warn(
        { err: error, accountId: scope.accountId, envId: scope.envId },
        'could not announce a change of components; routers see it when their cache expires',
      );
    }
  }
}
