import { LOG_FIELDS, type LogField, type TenantScope } from '@notify/domain';
import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * One webhook delivery waiting in the delayed queue (Queues.webhooks): the signed body stays the
 * same on every attempt, and so does its id, so a receiver recognises a retry.
 */
const logField = z.custom<LogField>((v) => typeof v === 'string' && LOG_FIELDS.has(v as LogField));

export const webhookDeliverySchema = z.object({
  accountId: z.string(),
  envId: z.string(),
  endpointId: z.string(),
  msgId: z.string(),
  body: z.string(),
  /** Attempts made so far. */
  attempts: z.number().int().min(0),
  /** The log record the outcome goes to, and its field (`*_webhook_res` / `*_webhook_delivered`), when the event has them. */
  trackingId: z.string().optional(),
  resField: logField.optional(),
  /** The boolean log field saying whether it got through (inbound events). */
  deliveredField: logField.optional(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/**
 * The delivery's id, the same however often the event is redelivered to the dispatcher: derived
 * from the event's id and the endpoint's, so a replayed event is recognised by receivers.
 */
export const deliveryId = (sourceId: string, endpointId: string): string =>
  `msg_${createHash('sha256').update(`${sourceId}\u0000${endpointId}`).digest('base64url').slice(0, 27)}`;

/** The delivery's key in the queue: tenant-scoped like every queue id. */
export const queueId = (scope: TenantScope, msgId: string): string =>
  `${scope.accountId}/${scope.envId}/${msgId}`;
