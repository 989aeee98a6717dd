import type { DeliveryMode, TypeOptions } from '../notification-types/notification-type';
import { instantOf, wallAt } from './zoned-time';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
/** A digest goes out at 09:00 in the user's time zone unless the type says otherwise. */
const DEFAULT_HOUR = 9;

type ChannelOptions = NonNullable<TypeOptions[keyof TypeOptions]>;

/** "9", "09", "09:30", "9am", "5pm" → minutes after midnight; undefined for anything else. */
export function minutesOfHour(hour: string | undefined): number | undefined {
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/i.exec((hour ?? '').trim());
  if (match === null) return undefined;
  let h = Number(match[1]);
  const m = Number(match[2] ?? 0);
  const meridiem = match[3]?.toLowerCase();
  if (meridiem === 'pm' && h < 12) h += 12;
  if (meridiem === 'am' && h === 12) h = 0;
  return h < 24 && m < 60 ? h * 60 + m : undefined;
}

/**
 * When the digest a send of `mode` joins goes out: the next window boundary on the user's wall
 * clock (`zone`, UTC without one), strictly after `now`. hourly: the next full hour; daily: the
 * next `daily.hour`; weekly: the next `weekly.day` at `weekly.hour`; monthly: the first or last
 * day (`monthly.date`) of this or the next month at `monthly.hour`. Wall-clock times follow DST.
 */
export function nextDigestAt(
  now: number,
  mode: Exclude<DeliveryMode, 'off' | 'instant'>,
  options: ChannelOptions | undefined,
  zone = 'UTC',
): number {
  const wall = wallAt(now, zone);
  const midnight = Math.floor(wall / DAY_MS) * DAY_MS;
  const after = (candidateWall: number) => instantOf(candidateWall, zone) > now;
  if (mode === 'hourly') {
    for (let wallHour = Math.floor(wall / HOUR_MS) * HOUR_MS + HOUR_MS; ; wallHour += HOUR_MS)
      if (after(wallHour)) return instantOf(wallHour, zone);
  }
  const at = (minutesOfHour(options?.[mode]?.hour) ?? DEFAULT_HOUR * 60) * 60_000;
  for (let day = 0; day <= 62; day++) {
    const dayMidnight = midnight + day * DAY_MS;
    const date = new Date(dayMidnight);
    if (mode === 'weekly') {
      const wanted = WEEKDAYS.indexOf((options?.weekly?.day ?? 'monday').toLowerCase());
      if (date.getUTCDay() !== (wanted < 0 ? 1 : wanted)) continue;
    }
    if (mode === 'monthly') {
      const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
      const wantedDate = options?.monthly?.date === 'last' ? last : 1;
      if (date.getUTCDate() !== wantedDate) continue;
    }
    if (after(dayMidnight + at)) return instantOf(dayMidnight + at, zone);
  }
  throw new Error(`no ${mode} digest window within 62 days`);
}
