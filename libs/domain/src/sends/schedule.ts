import { InvalidRequestError } from '@notify/util';
import { instantOf } from '../time/zoned-time';

export class InvalidScheduleError extends InvalidRequestError {
  constructor(value: string) {
    super({
      code: 'INVALID_SCHEDULE_FORMAT',
      message: `schedule "${value}" is not an ISO 8601 date-time.`,
      fix: "Use e.g. 2030-01-31T09:00:00Z, 2030-01-31T09:00:00+02:00, or 2030-01-31T09:00:00 (read in the user's timezone).",
    });
  }
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

function parseOffset(offset: string): number {
  if (offset === 'Z' || offset === 'z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0')) * 60_000;
}

/**
 * When a `schedule` means: an ISO 8601 date-time; one without an offset is read in
 * the user's time zone, else UTC. Throws InvalidScheduleError for anything else.
 */
export function parseSchedule(value: string, timezone?: string): number {
  const match = ISO.exec(value.trim());
  if (match === null) throw new InvalidScheduleError(value);
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '0', offset] = match;
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const wall = Date.UTC(...fields) + Math.floor(Number(`0.${fraction}`) * 1000);
  const check = new Date(Date.UTC(...fields));
  if (
    check.getUTCFullYear() !== fields[0] ||
    check.getUTCMonth() !== fields[1] ||
    check.getUTCDate() !== fields[2] ||
    fields[3] > 23 ||
    fields[4] > 59 ||
    fields[5] > 59
  ) {
    throw new InvalidScheduleError(value);
  }
  if (offset !== undefined) return wall - parseOffset(offset);
  if (timezone === undefined) return wall;
  return instantOf(wall, timezone);
}
