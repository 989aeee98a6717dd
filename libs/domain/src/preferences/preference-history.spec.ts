import { PREFERENCE_CHANGES_SHOWN, preferencesChangedEvent } from './preference-history';

describe('preferencesChangedEvent', () => {
  const at = '2026-01-05T09:00:00.000Z';

  it('names the actor, environment and user, and spells each choice', () => {
    expect(
      preferencesChangedEvent(
        {
          envId: 'env-a',
          userId: 'ann',
          updates: [
            { notificationId: 'news', channel: 'EMAIL', delivery: 'off' },
            { notificationId: 'news', subNotificationId: 'weekly', channel: 'SMS', delivery: 'daily' },
          ],
        },
        'member:usr_1',
        at,
      ),
    ).toEqual({
      at,
      type: 'preferences.changed',
      actor: 'member:usr_1',
      details: { envId: 'env-a', userId: 'ann', changes: 'news EMAIL off; news/weekly SMS daily' },
    });
  });

  it(`keeps the first ${PREFERENCE_CHANGES_SHOWN} choices and counts the rest`, () => {
    const updates = Array.from({ length: PREFERENCE_CHANGES_SHOWN + 3 }, (_, i) => ({
      notificationId: `t${i}`,
      channel: 'EMAIL' as const,
      delivery: 'off' as const,
    }));
    const { changes } = preferencesChangedEvent({ envId: 'e', userId: 'u', updates }, 'key:k1', at).details;
    expect(changes?.split('; ')).toHaveLength(PREFERENCE_CHANGES_SHOWN + 1);
    expect(changes).toMatch(/; t19 EMAIL off; and 3 more$/);
  });
});
