import { z } from 'zod';
import { instantOf, wallAt } from './zoned-time';

const DAY_MS = 86_400_000;
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * Hours a user is not to be disturbed (beyond the reference: Knock has them), in the user's time
 * zone: from `start` to `end` (HH:MM, 24-hour; an `end` before `start` runs past midnight), on
 * `days` (the day the quiet time starts; every day when absent).
 */
export const quietHoursSchema = z.object({
  start: z.string().regex(CLOCK, 'expected HH:MM (24-hour)'),
  end: z.string().regex(CLOCK, 'expected HH:MM (24-hour)'),
  days: z.array(z.enum(DAYS)).max(7).optional(),
});
export type QuietHours = z.infer<typeof quietHoursSchema>;

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));

/**
 * When the quiet time `now` falls in ends (an instant), or undefined when `now` is not quiet.
 * Computed on the wall clock of `zone` (UTC when the user has none), so it follows DST: a quiet
 * time ending at 07:00 ends at 07:00 local on either side of a change.
 */
export function quietUntil(now: number, quiet: QuietHours, zone = 'UTC'): number | undefined {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return undefined;
  const wall = wallAt(now, zone);
  const midnight = Math.floor(wall / DAY_MS) * DAY_MS;
  const minute = Math.floor((wall - midnight) / 60_000);
  const startsOn = (dayMidnight: number) =>
    quiet.days === undefined || quiet.days.includes(DAYS[new Date(dayMidnight).getUTCDay()] ?? 'sun');
  let endWall: number | undefined;
  if (start < end) {
    if (minute >= start && minute < end && startsOn(midnight)) endWall = midnight + end * 60_000;
  } else if (minute >= start && startsOn(midnight)) {
    endWall = midnight + DAY_MS + end * 60_000;
  } else if (minute < end && startsOn(midnight - DAY_MS)) {
    endWall = midnight + end * 60_000;
  }
  if (endWall === undefined) return undefined;
  const until = instantOf(endWall, zone);
  return until > now ? until : undefined;
}
