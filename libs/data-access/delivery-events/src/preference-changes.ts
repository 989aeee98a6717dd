import { Inject, Injectable } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@notify/bus';
import { type TenantScope, Topics, unsubscribes, type UserPreference, userKey } from '@notify/domain';
import { PreferenceRepository } from '@notify/store';

/**
 * Stores a user's delivery choices, from the browser client or a one-click unsubscribe link: each
 * channel newly turned off is announced as a `<CHANNEL>_UNSUBSCRIBE` user event
 * (Topics.userEvents), which webhooks forward (see Webhooks in docs/api-behaviour.md). A change
 * made from a message (its unsubscribe link) names that message's tracking id in the events.
 */
@Injectable()
export class PreferenceChanges {
  constructor(
    private readonly preferences: PreferenceRepository,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
  ) {}

  async apply(
    scope: TenantScope,
    userId: string,
    updates: readonly UserPreference[],
    trackingId?: string,
  ): Promise<UserPreference[]> {
    const now = new Date().toISOString();
    const { preferences, previous } = await this.preferences.update(scope, userId, updates, now);
    const events = unsubscribes(scope, userId, previous, updates, now);
    if (events.length > 0)
      await this.bus.publish(
        events.map((event) => ({
          topic: Topics.userEvents,
          key: userKey(scope.accountId, scope.envId, userId),
          value: trackingId === undefined ? event : { ...event, trackingId },
        })),
      );
    return preferences;
  }
}
