import { Limits } from '../validation/limits';
import { mergePreferences, TooManyPreferencesError, type UserPreference } from './preference';

const pref = (notificationId: string, delivery: UserPreference['delivery'] = 'off'): UserPreference => ({
  notificationId,
  channel: 'EMAIL',
  delivery,
});

describe('mergePreferences', () => {
  it('keeps one entry per notification, sub-notification and channel; the update wins', () => {
    const merged = mergePreferences(
      [pref('a'), { ...pref('a'), subNotificationId: 's' }],
      [pref('a', 'daily'), { ...pref('a'), channel: 'SMS' }],
    );
    expect(merged).toEqual([
      { ...pref('a'), subNotificationId: 's' },
      pref('a', 'daily'),
      { ...pref('a'), channel: 'SMS' },
    ]);
  });

  it(`refuses to keep more than ${Limits.preferencesPerUser} entries per user`, () => {
    const stored = Array.from({ length: Limits.preferencesPerUser }, (_, i) => pref(`n${i}`));
    expect(mergePreferences(stored, [pref('n1', 'daily')])).toHaveLength(Limits.preferencesPerUser);
    expect(() => mergePreferences(stored, [pref('one-more')])).toThrow(TooManyPreferencesError);
  });
});
