import type { Channel } from './summary';

export const STATUSES = ['SENT', 'DELIVERED', 'FAILED', 'IGNORED', 'SCHEDULED', 'OPENED', 'CLICKED'] as const;
export type Status = (typeof STATUSES)[number];

/** What the search form holds: free text as typed, times as `datetime-local` values. */
export interface LogFilters {
  user: string;
  notificationId: string;
  channel: Channel | '';
  status: Status | '';
  from: string;
  to: string;
}

export interface LogQueryBody {
  dateRangeFilter: [number, number];
  userFilter?: string[];
  notificationFilter?: string[];
  channelFilter?: Channel[];
  statusFilter?: Status[];
}

const DAY_SECONDS = 86_400;

/**
 * The log query for a search: the range in whole Unix seconds (the last 24 hours unless given, and an
 * end before the start swapped), and each filter only when set. Several users or types are separated
 * by commas.
 */
export function toLogQuery(filters: LogFilters, nowMs: number): LogQueryBody {
  const seconds = (value: string, fallback: number) => {
    const ms = value === '' ? Number.NaN : new Date(value).getTime();
    return Number.isNaN(ms) ? fallback : Math.floor(ms / 1000);
  };
  const now = Math.floor(nowMs / 1000);
  const to = seconds(filters.to, now);
  const from = seconds(filters.from, to - DAY_SECONDS);
  const list = (text: string) =>
    text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  const users = list(filters.user);
  const types = list(filters.notificationId);
  return {
    dateRangeFilter: from <= to ? [from, to] : [to, from],
    ...(users.length > 0 && { userFilter: users }),
    ...(types.length > 0 && { notificationFilter: types }),
    ...(filters.channel !== '' && { channelFilter: [filters.channel] }),
    ...(filters.status !== '' && { statusFilter: [filters.status] }),
  };
}
