import { z } from 'zod';
import { LOG_FIELDS, type LogFields } from './log-fields';

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

const kindSchema = { string: z.string(), number: z.number(), boolean: z.boolean() } as const;

/** An event as it travels on the bus; unknown fields are refused (dead-lettered), not dropped. */
export const deliveryEventSchema = z.object({
  eventId: z.string().min(1),
  accountId: z.string().min(1),
  envId: z.string().min(1),
  trackingId: z.string().min(1),
  time: z.number().int().nonnegative(),
  event: z.string().min(1),
  channel: z.string().optional(),
  fields: z.strictObject(
    Object.fromEntries([...LOG_FIELDS].map(([field, kind]) => [field, kindSchema[kind].optional()])),
  ) as unknown as z.ZodType<LogFields>,
}) satisfies z.ZodType<DeliveryEvent>;
