import { Limits } from '../validation/limits';
import {
  mergePreferences,
  TooManyPreferencesError,
  type UserPreference,
  userPreferenceSchema,
  withoutPreferences,
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

describe('withoutPreferences', () => {
  const stored: UserPreference[] = [
    pref('a'),
    { ...pref('a'), subNotificationId: 's1' },
    { ...pref('a'), subNotificationId: 's2' },
    pref('b'),
  ];

  it("drops every choice of the type, its sub-notifications' included, when no sub-notification is named", () => {
    expect(withoutPreferences(stored, { notificationId: 'a' })).toEqual([pref('b')]);
  });

  it("drops only the named sub-notification's choices", () => {
    expect(withoutPreferences(stored, { notificationId: 'a', subNotificationId: 's1' })).toEqual([
      pref('a'),
      { ...pref('a'), subNotificationId: 's2' },
      pref('b'),
    ]);
  });

  it('keeps everything when nothing matches', () => {
    expect(withoutPreferences(stored, { notificationId: 'c' })).toEqual(stored);
  });
});
