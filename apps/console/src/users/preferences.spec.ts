import { changedChoices, preferenceRows, type PreferencesView } from './preferences';

const view = (over: Partial<PreferencesView> = {}): PreferencesView => ({
  preferences: [],
  notifications: [
    {
      notificationId: 'news',
      title: 'News',
      channels: ['EMAIL', 'SMS'],
      options: {
        EMAIL: {
          defaultDeliveryOption: 'daily',
          off: { enabled: true },
          daily: { enabled: true },
          weekly: { enabled: true },
        },
      },
    },
  ],
  subNotifications: [{ notificationId: 'news', subNotificationId: 'sports', title: 'Sports' }],
  ...over,
});

describe('preferenceRows', () => {
  it("shows each type on each channel with the type's default and the options it enables", () => {
    const rows = preferenceRows(view());
    expect(rows.map((r) => [r.title, r.channel, r.current, r.chosen, r.options])).toEqual([
      ['News', 'EMAIL', 'daily', false, ['off', 'daily', 'weekly']],
      ['News: Sports', 'EMAIL', 'daily', false, ['off', 'daily', 'weekly']],
      ['News', 'SMS', 'instant', false, ['off', 'instant', 'hourly', 'daily', 'weekly', 'monthly']],
      ['News: Sports', 'SMS', 'instant', false, ['off', 'instant', 'hourly', 'daily', 'weekly', 'monthly']],
    ]);
  });

  it("takes the user's choices, a sub-notification defaulting to its type's value, and keeps choices no type describes", () => {
    const rows = preferenceRows(
      view({
        preferences: [
          { notificationId: 'news', channel: 'EMAIL', delivery: 'off' },
          { notificationId: 'gone', channel: 'SLACK', delivery: 'weekly' },
        ],
      }),
    );
    expect(rows.map((r) => [r.title, r.channel, r.current, r.chosen])).toEqual([
      ['News', 'EMAIL', 'off', true],
      ['News: Sports', 'EMAIL', 'off', false],
      ['News', 'SMS', 'instant', false],
      ['News: Sports', 'SMS', 'instant', false],
      ['gone', 'SLACK', 'weekly', true],
    ]);
  });

  it('offers a stored choice the type no longer enables, so the form shows it as it is', () => {
    const [email] = preferenceRows(
      view({ preferences: [{ notificationId: 'news', channel: 'EMAIL', delivery: 'monthly' }] }),
    );
    expect(email?.options).toEqual(['off', 'daily', 'weekly', 'monthly']);
  });
});

describe('changedChoices', () => {
  it('sends only the rows changed in the form, with their sub-notification', () => {
    const rows = preferenceRows(view());
    const [email, sportsEmail, sms] = rows;
    expect(
      changedChoices(rows, {
        [email?.key ?? '']: 'daily',
        [sportsEmail?.key ?? '']: 'off',
        [sms?.key ?? '']: 'hourly',
      }),
    ).toEqual([
      { notificationId: 'news', subNotificationId: 'sports', channel: 'EMAIL', delivery: 'off' },
      { notificationId: 'news', channel: 'SMS', delivery: 'hourly' },
    ]);
    expect(changedChoices(rows, {})).toEqual([]);
  });
});
