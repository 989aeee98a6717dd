import { z } from 'zod';
import { LOG_FIELDS, type LogField, type LogFields } from './log-fields';

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
  /** Whose send it is (for webhooks, whose payload names them); absent on events that predate it. */
  readonly userId?: string;
  readonly notificationId?: string;
  /**
   * Webhook payload fields beyond the log's (an inbound SMS's `lastTrackingId`, an inbound email's
   * address lists and attachments): JSON values.
   */
  readonly webhookExtras?: Readonly<Record<string, unknown>>;
  readonly fields: LogFields;
}

const KIND_OF_VALUE = { string: 'string', number: 'number', boolean: 'boolean' } as const;

/**
 * The fields an event sets, checked against the catalog: known names, values of the field's kind.
 * Checking the fields present (a handful) rather than parsing a 171-key object keeps validation
 * of every consumed event cheap.
 */
const fieldsSchema = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .superRefine((fields, ctx) => {
    for (const [name, value] of Object.entries(fields)) {
      const kind = LOG_FIELDS.get(name as LogField);
      if (kind === undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'not a log field' });
      else if (typeof value !== KIND_OF_VALUE[kind])
        ctx.addIssue({ code: 'custom', path: [name], message: `expected a ${kind}` });
    }
  }) as unknown as z.ZodType<LogFields>;

/** An event as it travels on the bus; unknown fields are refused (dead-lettered), not dropped. */
export const deliveryEventSchema = z.object({
  eventId: z.string().min(1),
  accountId: z.string().min(1),
  envId: z.string().min(1),
  trackingId: z.string().min(1),
  time: z.number().int().nonnegative(),
  event: z.string().min(1),
  channel: z.string().optional(),
  userId: z.string().optional(),
  notificationId: z.string().optional(),
  webhookExtras: z.record(z.string(), z.json()).optional(),
  fields: fieldsSchema,
}) satisfies z.ZodType<DeliveryEvent>;
