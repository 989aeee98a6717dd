import { Limits } from '../validation/limits';
import {
  mergePreferences,
  TooManyPreferencesError,
  type UserPreference,
  userPreferenceSchema,
} from './preference';

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

describe('userPreferenceSchema', () => {
  it('takes only off and instant for in-app, every delivery mode elsewhere', () => {
    const parse = (channel: string, delivery: string) =>
      userPreferenceSchema.safeParse({ notificationId: 'n', channel, delivery });
    expect(parse('INAPP_WEB', 'off').success).toBe(true);
    expect(parse('INAPP_WEB', 'instant').success).toBe(true);
    for (const digest of ['hourly', 'daily', 'weekly', 'monthly']) {
      const refused = parse('INAPP_WEB', digest);
      expect(refused.success).toBe(false);
      expect(refused.error?.issues).toEqual([
        expect.objectContaining({ path: ['delivery'], message: 'INAPP_WEB takes only off or instant' }),
      ]);
      expect(parse('EMAIL', digest).success).toBe(true);
    }
  });
});
