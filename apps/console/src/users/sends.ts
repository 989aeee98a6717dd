import type { LogQueryBody } from '../logs/filters';

const WEEK_SECONDS = 7 * 86_400;

/**
 * The log query for a user's recent sends: the last 7 days up to `nowMs`, in whole Unix seconds.
 * The id is one filter value as it is (an id may hold a comma).
 */
export function recentSendsQuery(userId: string, nowMs: number): LogQueryBody {
  const now = Math.floor(nowMs / 1000);
  return { dateRangeFilter: [now - WEEK_SECONDS, now], userFilter: [userId] };
}
