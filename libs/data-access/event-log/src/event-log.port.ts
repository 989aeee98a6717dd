import type { DeliveryEvent, LogField, LogFields, LogRecord, TenantScope } from '@notify/domain';

export interface LogQuery {
  readonly accountId: string;
  /** Environments to search; a caller authenticated by an environment's key passes only its own. */
  readonly envIds: readonly string[];
  /** Epoch milliseconds, inclusive start and exclusive end, on the record's first event. */
  readonly from: number;
  readonly to: number;
  readonly userIds?: readonly string[];
  readonly types?: readonly string[];
  /** Log prefixes (email, sms, …): records routed to any of these channels. */
  readonly channels?: readonly string[];
  /** Records where any of these fields is set (e.g. `email_failed_at`). */
  readonly anyFieldSet?: readonly LogField[];
  readonly limit?: number;
}

/** A delivery event as the log keeps it: what happened, when, and the log fields it set. */
export type LoggedEvent = Pick<DeliveryEvent, 'eventId' | 'trackingId' | 'time' | 'event'> & {
  readonly fields: LogFields;
};

/** A place in an environment's events, which are ordered by time, then event id. */
export interface EventPosition {
  readonly time: number;
  readonly eventId: string;
}

/**
 * The delivery log: events are appended (by the recorder only) and folded per tracking id into
 * the log record (the fields in log-fields.ts) — for every field, its latest non-null value.
 */
export interface EventLog {
  /** Appends events in one insert; retrying the same events never duplicates a record. */
  append(events: readonly DeliveryEvent[]): Promise<void>;
  /** The records of these tracking ids within the scope (unknown ids are simply absent). */
  records(scope: TenantScope, trackingIds: readonly string[]): Promise<LogRecord[]>;
  /** Records matching a query, newest first. */
  query(query: LogQuery): Promise<LogRecord[]>;
  /**
   * The environment's events, newest first (by time, then event id), each once; with `before`,
   * only those after it in that order, so pages continue exactly where the last one ended.
   */
  events(
    scope: TenantScope,
    page: { readonly limit: number; readonly before?: EventPosition },
  ): Promise<LoggedEvent[]>;
  /**
   * The events of one tracking id within the scope, oldest first (by time, then event id), each
   * once, at most `limit` (capped at MAX_QUERY_RESULTS); none for an id of another scope.
   */
  eventsOf(scope: TenantScope, trackingId: string, limit: number): Promise<LoggedEvent[]>;
  /** The environment's records with the latest last events, newest first. */
  latestRecords(scope: TenantScope, limit: number): Promise<LogRecord[]>;
  probe(): Promise<void>;
  close(): Promise<void>;
}

export const EVENT_LOG = Symbol('EVENT_LOG');
export const MAX_QUERY_RESULTS = 1_000;
