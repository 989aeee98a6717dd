import { Limits } from '@notify/domain';
import { type LogQueryBody, logQuerySchema } from '@notify/gateway-logs';
import { InvalidRequestError } from '@notify/util';
import { z } from 'zod';

/**
 * The older SDKs' `queryLogs` body: the date range is an object of Unix seconds, and it may name
 * filters the log query does not have (tracking ids, request bodies, a custom expression).
 */
export const legacyLogQuerySchema = logQuerySchema.omit({ dateRangeFilter: true }).extend({
  dateRangeFilter: z
    .object({
      startTime: z.number().nonnegative().optional(),
      endTime: z.number().nonnegative().optional(),
    })
    .optional(),
  trackingIds: z.array(z.string().max(Limits.id)).max(100).optional(),
  requestFilter: z.array(z.string().max(Limits.shortText)).max(100).optional(),
  customFilter: z.string().max(Limits.shortText).optional(),
});
export type LegacyLogQueryBody = z.infer<typeof legacyLogQuerySchema>;

const unsupported = (filter: string, fix: string) =>
  new InvalidRequestError({
    code: 'UNSUPPORTED_LOG_FILTER',
    message: `${filter} is not a filter of log queries here.`,
    fix,
  });

/**
 * The log query an older SDK's body asks for: a missing start is the oldest record kept, a missing
 * end is now. A filter the query cannot apply is refused (400) rather than ignored, since ignoring
 * it would answer records the caller excluded.
 */
export function logQueryOf(body: LegacyLogQueryBody, nowMs: number): LogQueryBody {
  const { dateRangeFilter, trackingIds, requestFilter, customFilter, ...filters } = body;
  if ((trackingIds?.length ?? 0) > 0)
    throw unsupported('trackingIds', 'Read logs by tracking id with POST /logs/bulk {trackingIds}.');
  if ((requestFilter?.length ?? 0) > 0 || (customFilter ?? '').length > 0)
    throw unsupported(
      requestFilter !== undefined ? 'requestFilter' : 'customFilter',
      'Filter by user, type, channel, status or environment instead.',
    );
  const start = dateRangeFilter?.startTime ?? 0;
  const end = dateRangeFilter?.endTime ?? Math.floor(nowMs / 1_000);
  if (end < start)
    throw new InvalidRequestError({
      code: 'VALIDATION_ERROR',
      message: 'dateRangeFilter: endTime must not precede startTime.',
      fix: 'Give startTime and endTime in Unix seconds, the start first.',
    });
  return { ...filters, dateRangeFilter: [start, end] };
}
