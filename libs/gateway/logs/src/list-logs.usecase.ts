import { Inject, Injectable } from '@nestjs/common';
import { type LogMessage, logMessageOf } from '@notify/domain';
import { EVENT_LOG, type EventLog } from '@notify/event-log';
import { z } from 'zod';
import type { Tenant } from '@notify/gateway-auth';
import { decodeLogsCursor, encodeLogsCursor } from './logs-cursor';

export const MAX_LOGS_PAGE = 100;

/** `GET /logs?limit&cursor`: up to 100 events a page, 50 unless asked. */
export const listLogsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LOGS_PAGE).default(50),
  cursor: z.string().min(1).max(1_000).optional(),
});
export type ListLogsQuery = z.infer<typeof listLogsQuerySchema>;

export interface LogsPage {
  readonly messages: LogMessage[];
  readonly nextCursor?: string;
}

/**
 * The environment's delivery events, newest first, a page at a time. Events are ordered by time,
 * then event id, so a cursor (the last event's place) continues exactly: none skipped or repeated,
 * however many share a millisecond. There is a next page when one more event than asked exists.
 */
@Injectable()
export class ListLogsUseCase {
  constructor(@Inject(EVENT_LOG) private readonly log: EventLog) {}

  async execute(tenant: Tenant, query: ListLogsQuery): Promise<LogsPage> {
    const before = query.cursor === undefined ? undefined : decodeLogsCursor(tenant, query.cursor);
    const events = await this.log.events(tenant, { limit: query.limit + 1, ...(before ? { before } : {}) });
    const page = events.slice(0, query.limit);
    const last = page.at(-1);
    return {
      messages: page.map(logMessageOf),
      ...(events.length > query.limit && last !== undefined
        ? { nextCursor: encodeLogsCursor(tenant, { time: last.time, eventId: last.eventId }) }
        : {}),
    };
  }
}
