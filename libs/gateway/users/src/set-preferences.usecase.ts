import { Injectable } from '@nestjs/common';
import { PreferenceChanges } from '@notify/delivery-events';
import { preferencesChangedEvent, type TenantScope, type UserPreference } from '@notify/domain';
import { InjectClock, InjectLogger, type Logger } from '@notify/platform';
import { AccountHistoryRepository } from '@notify/store';
import type { Clock } from '@notify/util';

/**
 * `POST /users/{userId}/preferences`: sets a user's preferences on their behalf, as the browser
 * client's call does (channels turned off are announced as `<CHANNEL>_UNSUBSCRIBE`), and records in
 * the account's history who did it. The change stands whatever happens to the history: a failed
 * history write is logged with the event rather than turned into an error the caller would retry.
 */
@Injectable()
export class SetPreferencesUseCase {
  constructor(
    private readonly changes: PreferenceChanges,
    private readonly history: AccountHistoryRepository,
    @InjectClock() private readonly clock: Clock,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async execute(
    scope: TenantScope,
    userId: string,
    updates: readonly UserPreference[],
    actor: string,
  ): Promise<UserPreference[]> {
    const preferences = await this.changes.apply(scope, userId, updates);
    const event = preferencesChangedEvent(
      { envId: scope.envId, userId, updates },
      actor,
      new Date(this.clock.now()).toISOString(),
    );
    await this.history.append(scope.accountId, event).catch((error: unknown) => {
      this.logger.error(
        { err: error, accountId: scope.accountId, event },
        'a preference change was not recorded',
      );
    });
    return preferences;
  }
}
