import { Injectable } from '@nestjs/common';
import { type WebhookAttempt, WebhookAttemptsStore } from '@notify/cache';
import type { TenantScope } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { WebhookEndpointRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { webhookNotFound } from './webhook-endpoints';

/** One event's delivery to an endpoint, with the attempts made in the order they were made. */
export interface DeliveryView {
  readonly msgId: string;
  readonly eventType: string;
  readonly trackingId?: string;
  /** Where it stands after its latest attempt: `delivered`, `retrying` or `failed`. */
  readonly status: WebhookAttempt['status'];
  readonly attempts: {
    readonly at: string;
    readonly statusCode?: number;
    readonly error?: string;
    readonly body: string;
    readonly durationMs: number;
  }[];
  readonly nextAttemptAt?: string;
}

/**
 * `GET /webhooks/{endpointId}/deliveries`: the endpoint's recent attempts (the last 500 within 7
 * days) grouped by delivery (`msgId`), the delivery attempted last first.
 */
@Injectable()
export class ListDeliveriesUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly attempts: WebhookAttemptsStore,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(scope: TenantScope, endpointId: string): Promise<DeliveryView[]> {
    if ((await this.endpoints.get(scope, endpointId)) === undefined) throw webhookNotFound();
    return deliveriesOf(await this.attempts.recent(scope, endpointId, this.clock.now()));
  }
}

/** Groups attempts (newest first) by delivery; a delivery's state is its latest attempt's. */
export function deliveriesOf(newestFirst: readonly WebhookAttempt[]): DeliveryView[] {
  const groups = new Map<string, WebhookAttempt[]>();
  for (const attempt of newestFirst)
    groups.set(attempt.msgId, [...(groups.get(attempt.msgId) ?? []), attempt]);
  return [...groups.values()].flatMap(([latest, ...older]) => {
    if (latest === undefined) return [];
    return [
      {
        msgId: latest.msgId,
        eventType: latest.eventType,
        ...(latest.trackingId !== undefined ? { trackingId: latest.trackingId } : {}),
        status: latest.status,
        attempts: [latest, ...older].reverse().map((a) => ({
          at: new Date(a.at).toISOString(),
          ...(a.statusCode !== undefined ? { statusCode: a.statusCode } : {}),
          ...(a.error !== undefined ? { error: a.error } : {}),
          body: a.body,
          durationMs: a.durationMs,
        })),
        ...(latest.nextAttemptAt !== undefined
          ? { nextAttemptAt: new Date(latest.nextAttemptAt).toISOString() }
          : {}),
      },
    ];
  });
}
