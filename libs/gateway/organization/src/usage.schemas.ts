import { z } from 'zod';

/** Most months one usage history answers. */
export const MAX_HISTORY_MONTHS = 24;

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((day) => {
    const at = new Date(`${day}T00:00:00.000Z`);
    return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(day);
  }, 'not a calendar date');

const monthIndex = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;

/** The months of `from` to `to` (YYYY-MM-DD) as YYYY-MM, oldest first. */
export function monthsBetween(from: string, to: string): string[] {
  return Array.from({ length: monthIndex(to) - monthIndex(from) + 1 }, (_, i) => {
    const index = monthIndex(from) + i;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

/** `GET /organization/usage/history`: a range of at most MAX_HISTORY_MONTHS months. */
export const usageHistoryQuerySchema = z
  .object({ startDate: isoDay, endDate: isoDay })
  .refine((q) => q.startDate <= q.endDate, { path: ['endDate'], message: 'must not be before startDate' })
  .refine((q) => monthsBetween(q.startDate, q.endDate).length <= MAX_HISTORY_MONTHS, {
    path: ['endDate'],
    message: `the range may span at most ${MAX_HISTORY_MONTHS} months`,
  });
export type UsageHistoryQuery = z.infer<typeof usageHistoryQuerySchema>;
