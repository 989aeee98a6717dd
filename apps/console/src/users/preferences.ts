import type { paths } from '../api/openapi';

export type PreferencesView =
  paths['/users/{userId}/preferences']['get']['responses'][200]['content']['application/json'];
export type Choice = PreferencesView['preferences'][number];
export type Delivery = Choice['delivery'];
type Channel = Choice['channel'];

export const DELIVERIES: readonly Delivery[] = ['off', 'instant', 'hourly', 'daily', 'weekly', 'monthly'];

/** One line of the preference form: a notification (or sub-notification) on one channel. */
export interface PreferenceRow {
  key: string;
  notificationId: string;
  subNotificationId: string | undefined;
  title: string;
  channel: Channel;
  /** The user's own choice, else what the type delivers by default. */
  current: Delivery;
  /** Whether `current` is the user's own choice. */
  chosen: boolean;
  /** What may be chosen: the options the type enables on the channel, all of them for an unknown type. */
  options: Delivery[];
}

const keyOf = (notificationId: string, subNotificationId: string | undefined, channel: string) =>
  [notificationId, subNotificationId ?? '', channel].join('\u0000');

/**
 * The form's rows: each notification type on each of its channels, then its sub-notifications on
 * the same channels (defaulting to the type's value), then any stored choice no type describes.
 */
export function preferenceRows(view: PreferencesView): PreferenceRow[] {
  const stored = new Map(
    view.preferences.map((p) => [keyOf(p.notificationId, p.subNotificationId, p.channel), p]),
  );
  const rows: PreferenceRow[] = [];
  const row = (
    notificationId: string,
    subNotificationId: string | undefined,
    title: string,
    channel: Channel,
    fallback: Delivery,
    enabled: Delivery[],
  ): PreferenceRow => {
    const key = keyOf(notificationId, subNotificationId, channel);
    const choice = stored.get(key);
    stored.delete(key);
    const current = choice?.delivery ?? fallback;
    const options = DELIVERIES.filter((d) => enabled.includes(d) || d === current || d === fallback);
    return {
      key,
      notificationId,
      subNotificationId,
      title,
      channel,
      current,
      chosen: choice !== undefined,
      options,
    };
  };
  for (const type of view.notifications) {
    for (const channel of type.channels) {
      const options = type.options[channel];
      const fallback = options?.defaultDeliveryOption ?? 'instant';
      const enabled =
        options === undefined ? [...DELIVERIES] : DELIVERIES.filter((d) => options[d]?.enabled === true);
      const main = row(type.notificationId, undefined, type.title, channel, fallback, enabled);
      rows.push(main);
      for (const sub of view.subNotifications.filter((s) => s.notificationId === type.notificationId))
        rows.push(
          row(
            type.notificationId,
            sub.subNotificationId,
            `${type.title}: ${sub.title}`,
            channel,
            main.current,
            enabled,
          ),
        );
    }
  }
  for (const choice of stored.values()) {
    const title =
      choice.subNotificationId === undefined
        ? choice.notificationId
        : `${choice.notificationId}: ${choice.subNotificationId}`;
    rows.push(
      row(choice.notificationId, choice.subNotificationId, title, choice.channel, choice.delivery, [
        ...DELIVERIES,
      ]),
    );
  }
  return rows;
}

/** The choices to send: the rows whose value in the form differs from what is stored or defaulted. */
export function changedChoices(
  rows: readonly PreferenceRow[],
  draft: Readonly<Record<string, Delivery>>,
): Choice[] {
  return rows.flatMap((row) => {
    const delivery = draft[row.key];
    if (delivery === undefined || delivery === row.current) return [];
    return [
      {
        notificationId: row.notificationId,
        ...(row.subNotificationId !== undefined && { subNotificationId: row.subNotificationId }),
        channel: row.channel,
        delivery,
      },
    ];
  });
}
