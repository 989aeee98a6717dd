import type { LogFields } from './log-fields';

/**
 * One step of one delivery, appended to the event log by the service that took it. The log
 * record of a tracking id is the fold of its events: per field, the value of the latest event
 * (by time, then event id) that set it.
 */
export interface DeliveryEvent {
  /** Unique and time-ordered; a retried append of the same event carries the same id. */
  readonly eventId: string;
  readonly accountId: string;
  readonly envId: string;
  readonly trackingId: string;
  /** Epoch milliseconds. */
  readonly time: number;
  /** What happened, e.g. `request_received`, `email_routed`, `email_sent`. */
  readonly event: string;
  readonly channel?: string;
  readonly fields: LogFields;
}
