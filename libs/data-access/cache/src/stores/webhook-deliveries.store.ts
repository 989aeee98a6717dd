import { Inject, Injectable } from '@nestjs/common';
import { LOG_FIELDS, type LogField, Queues } from '@notify/domain';
import { z } from 'zod';
import { COORDINATION, type CoordinationStore } from '../cache.port';

const logField = z.custom<LogField>((v) => typeof v === 'string' && LOG_FIELDS.has(v as LogField));

/**
 * One webhook delivery waiting in the delayed queue: the signed body stays the same on every
 * attempt, and so does its id, so a receiver recognises a retry.
 */
export const webhookDeliverySchema = z.object({
  accountId: z.string(),
  envId: z.string(),
  endpointId: z.string(),
  msgId: z.string(),
  body: z.string(),
  /** Attempts made so far. */
  attempts: z.number().int().min(0),
  /** The log record the outcome goes to, and its field, when the event has them. */
  trackingId: z.string().optional(),
  resField: logField.optional(),
  /** The boolean log field saying whether it got through (inbound events). */
  deliveredField: logField.optional(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A delivery claimed for an attempt; `delivery` is undefined when the queued item is unreadable. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly claimToken: string;
  readonly delivery: WebhookDelivery | undefined;
}

/**
 * The webhook deliveries' durable delayed queue, shared by every dispatcher: a delivery is due at
 * its next attempt, a claim holds it for a lease (an unacknowledged one, its dispatcher died, comes
 * due again), and an acknowledged one is gone.
 */
@Injectable()
export class WebhookDeliveriesStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /** Queues each delivery (or replaces the one with its id) due at `dueAt`. */
  async schedule(deliveries: readonly WebhookDelivery[], dueAt: number): Promise<void> {
    await Promise.all(
      deliveries.map((delivery) =>
        this.coordination.schedule(Queues.webhooks, {
          id: queueId(delivery),
          dueAt,
          payload: JSON.stringify(delivery),
        }),
      ),
    );
  }

  /** Claims up to `limit` deliveries due at `now`, each for `leaseMs`. */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const claimed = await this.coordination.claimDue(Queues.webhooks, now, limit, leaseMs);
    return claimed.map((item) => {
      const parsed = webhookDeliverySchema.safeParse(parseJson(item.payload));
      return { id: item.id, claimToken: item.claimToken, delivery: parsed.success ? parsed.data : undefined };
    });
  }

  /** Done with a claimed delivery: it leaves the queue (unless claimed again since, under another token). */
  async ack(claim: Pick<ClaimedDelivery, 'id' | 'claimToken'>): Promise<void> {
    await this.coordination.ack(Queues.webhooks, claim.id, claim.claimToken);
  }
}

/** The delivery's key in the queue: tenant-scoped like every queue id. */
const queueId = (delivery: WebhookDelivery): string =>
  `${delivery.accountId}/${delivery.envId}/${delivery.msgId}`;

/** The value `text` spells, or undefined when it is not JSON (a reader's schema then refuses it). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
