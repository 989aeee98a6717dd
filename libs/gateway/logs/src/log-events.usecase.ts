import { Inject, Injectable } from '@nestjs/common';
import type { LogFields } from '@notify/domain';
import { EVENT_LOG, type EventLog, MAX_QUERY_RESULTS } from '@notify/event-log';
import { NotFoundError } from '@notify/util';
import type { Tenant } from '@notify/gateway-auth';

/** One event of a send's timeline: what happened, when, and the log fields it set. */
export interface TimelineEvent {
  readonly eventId: string;
  readonly event: string;
  readonly timestamp: string;
  readonly epochMs: number;
  readonly fields: LogFields;
}

export interface Timeline {
  readonly events: TimelineEvent[];
}

export function noLogFor(ids: readonly string[]): NotFoundError {
  return new NotFoundError({
    code: 'NOT_FOUND',
    message: `No delivery log for ${ids.length === 1 ? `tracking id ${ids[0]}` : 'any of these tracking ids'} in this environment.`,
    fix: 'Check the tracking ids and the API key; logs appear a moment after the send is accepted.',
  });
}

/**
 * `GET /logs/{trackingId}/events`: every event of one send, oldest first (by time, then event id),
 * at most 1,000 (the earliest). The request that started the send is the `request` field of its
 * `request_received` event. An id with neither events nor a record in the caller's environment is
 * 404; a record whose events have expired (a send scheduled beyond the retention) has an empty timeline.
 */
@Injectable()
export class LogEventsUseCase {
  constructor(@Inject(EVENT_LOG) private readonly log: EventLog) {}

  async execute(tenant: Tenant, trackingId: string): Promise<Timeline> {
    const events = await this.log.eventsOf(tenant, trackingId, MAX_QUERY_RESULTS);
    if (events.length === 0 && (await this.log.records(tenant, [trackingId])).length === 0)
      throw noLogFor([trackingId]);
    return {
      events: events.map((e) => ({
        eventId: e.eventId,
        event: e.event,
        timestamp: new Date(e.time).toISOString(),
        epochMs: e.time,
        fields: e.fields,
      })),
    };
  }
}
