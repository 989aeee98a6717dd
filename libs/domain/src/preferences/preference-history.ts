import type { AccountEvent } from '../tenancy/account-history';
import type { UserPreference } from './preference';

/** The account history's `preferences.changed` event keeps this much of the change list. */
export const PREFERENCE_CHANGES_SHOWN = 20;

/**
 * The account history's record of preferences set on a user's behalf through the server API (the
 * user's own changes, from the browser client, are theirs and not recorded): who changed them, in
 * which environment, for which user, and the choices made, the first PREFERENCE_CHANGES_SHOWN of
 * them spelled `notification[/sub] CHANNEL delivery`.
 */
export function preferencesChangedEvent(
  change: { readonly envId: string; readonly userId: string; readonly updates: readonly UserPreference[] },
  actor: string,
  at: string,
): AccountEvent {
  const spelled = change.updates
    .slice(0, PREFERENCE_CHANGES_SHOWN)
    .map(
      (p) =>
        `${p.notificationId}${p.subNotificationId !== undefined ? `/${p.subNotificationId}` : ''} ${p.channel} ${p.delivery}`,
    );
  const more = change.updates.length - spelled.length;
  return {
    at,
    type: 'preferences.changed',
    actor,
    details: {
      envId: change.envId,
      userId: change.userId,
      changes: more > 0 ? `${spelled.join('; ')}; and ${more} more` : spelled.join('; '),
    },
  };
}
