import { Injectable } from '@nestjs/common';
import type { PreferenceTarget, TenantScope } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { PreferenceRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/**
 * Forgets a user's stored choices for a notification type (or only one sub-notification's), so the
 * type's defaults apply again. Removing nothing is no error. No unsubscribe event follows: a removed
 * choice turns no channel off.
 */
@Injectable()
export class DeletePreferencesUseCase {
  constructor(
    private readonly preferences: PreferenceRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(scope: TenantScope, userId: string, target: PreferenceTarget): Promise<{ removed: number }> {
    const now = new Date(this.clock.now()).toISOString();
    return { removed: await this.preferences.remove(scope, userId, target, now) };
  }
}
