import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  type ClaimedDelivery,
  KEPT_PAYLOAD_BYTES,
  type WebhookAttempt,
  WebhookAttemptsStore,
  type WebhookDelivery,
  WebhookDeliveriesStore,
} from '@notify/cache';
import { DeliveryEventsPublisher } from '@notify/delivery-events';
import {
  type DeliveryEvent,
  isRetryableStatus,
  type LogFields,
  WEBHOOK_RETRY_SCHEDULE_MS,
  webhookResult,
  webhookSignatureHeaders,
} from '@notify/domain';
import {
  type AppConfig,
  InjectClock,
  InjectConfig,
  InjectLogger,
  type Logger,
  safePost,
  Semaphore,
} from '@notify/platform';
import type { Clock } from '@notify/util';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { EndpointCache } from './endpoint-cache';

/** Attempts claimed (running or waiting for their endpoint) per dispatcher process. */
const MAX_IN_FLIGHT = 256;
/** Claimed at once, so one busy endpoint does not take every claim of a poll. */
const CLAIM_BATCH = 64;
/**
 * An endpoint with this many attempts waiting has new ones deferred in the queue (by about the time
 * its backlog takes), so a slow receiver holds a bounded share of MAX_IN_FLIGHT.
 */
const MAX_WAITING_PER_ENDPOINT = 64;
/** Outcomes are logged in batches, this long apart at most. */
const RECORD_DELAY_MS = 50;

/** One endpoint's lane: its concurrency limit and how long its attempts take (moving average). */
interface Lane {
  readonly slots: Semaphore;
  averageMs: number;
}
/** A claim outlives the longest attempt; an unacknowledged one (the dispatcher died) comes due again. */
const LEASE_MARGIN_MS = 30_000;
const IDLE_POLL_MS = 250;

/**
 * Makes the attempts of webhook deliveries from the durable delayed queue, so a pending retry
 * survives any restart: claims what is due, posts it (signed, through the egress guard, within
 * WEBHOOK_TIMEOUT_MS), and then acknowledges it, or reschedules it at its next attempt on a
 * network error, timeout, 408, 429 or 5xx while the schedule lasts. Each endpoint has its own
 * concurrency limit, so a slow receiver delays only its own deliveries. Outcomes go to the log
 * (`*_webhook_res`) of the event's tracking id, and every attempt to the endpoint's recent
 * attempts (what `GET /webhooks/{id}/deliveries` shows).
 */
@Injectable()
export class WebhookWorker implements OnApplicationShutdown {
  private readonly schedule: readonly number[];
  private readonly lanes = new Map<string, Lane>();
  private readonly outcomes: DeliveryEvent[] = [];
  private recordTimer?: NodeJS.Timeout;
  private readonly agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets: 64 }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: 64 }),
  };
  private inFlight = 0;
  private running = false;
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;

  constructor(
    private readonly endpoints: EndpointCache,
    private readonly events: DeliveryEventsPublisher,
    private readonly queue: WebhookDeliveriesStore,
    private readonly attempts: WebhookAttemptsStore,
    @InjectConfig() private readonly config: AppConfig,
    @InjectLogger() private readonly logger: Logger,
    @InjectClock() private readonly clock: Clock,
  ) {
    this.schedule = config.webhooks.retryScheduleMs ?? WEBHOOK_RETRY_SCHEDULE_MS;
  }

  start(): void {
    this.running = true;
    this.wake();
  }

  /** Claims at once (new deliveries were queued), instead of at the next poll. */
  wake(): void {
    if (!this.running || this.polling !== undefined) return;
    clearTimeout(this.timer);
    this.polling = this.poll().finally(() => {
      this.polling = undefined;
      if (this.running) this.timer = setTimeout(() => this.wake(), IDLE_POLL_MS);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.polling;
    // Attempts in flight finish (each within the timeout); unfinished claims come due again after their lease.
    // A wait on real I/O, so it counts real time (timers), not the clock port's.
    const limitMs = this.config.webhooks.timeoutMs + 1_000;
    for (let waitedMs = 0; this.inFlight > 0 && waitedMs < limitMs; waitedMs += 50)
      await new Promise((r) => setTimeout(r, 50));
    clearTimeout(this.recordTimer);
    await this.flushOutcomes();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async poll(): Promise<void> {
    try {
      while (this.running && this.inFlight < MAX_IN_FLIGHT) {
        const claimed = await this.queue.claimDue(
          this.clock.now(),
          Math.min(CLAIM_BATCH, MAX_IN_FLIGHT - this.inFlight),
          this.config.webhooks.timeoutMs + LEASE_MARGIN_MS,
        );
        for (const claim of claimed) this.begin(claim);
        if (claimed.length === 0) return;
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'could not claim webhook deliveries; retrying');
    }
  }

  private begin(claim: ClaimedDelivery): void {
    const { delivery } = claim;
    if (delivery === undefined) {
      this.logger.error({ id: claim.id }, 'dropping an unreadable webhook delivery');
      void this.queue.ack(claim);
      return;
    }
    let lane = this.lanes.get(delivery.endpointId);
    if (lane === undefined) {
      lane = { slots: new Semaphore(this.config.webhooks.endpointConcurrency), averageMs: 100 };
      this.lanes.set(delivery.endpointId, lane);
    }
    const { waiting } = lane.slots.usage;
    if (waiting >= MAX_WAITING_PER_ENDPOINT) {
      // Saturated: the delivery waits in the queue, not in memory under a lease, for about as long
      // as the endpoint's backlog takes.
      const backlogMs = (lane.averageMs * waiting) / this.config.webhooks.endpointConcurrency;
      void this.reschedule(
        delivery,
        this.clock.now() + Math.min(60_000, Math.max(50, backlogMs)),
        delivery.attempts,
      );
      return;
    }
    this.inFlight++;
    const current = lane;
    void current.slots
      .run(async () => {
        const started = this.clock.now();
        await this.attempt(delivery, claim);
        current.averageMs = current.averageMs * 0.8 + (this.clock.now() - started) * 0.2;
      })
      .catch((error: unknown) =>
        this.logger.error({ err: error, msgId: delivery.msgId }, 'webhook attempt failed'),
      )
      .finally(() => {
        this.inFlight--;
        const usage = current.slots.usage;
        if (usage.active === 0 && usage.waiting === 0) this.lanes.delete(delivery.endpointId);
        this.wake();
      });
  }

  private async attempt(delivery: WebhookDelivery, claim: ClaimedDelivery): Promise<void> {
    const destination = (await this.endpoints.destinations(delivery)).find(
      (d) => d.endpointId === delivery.endpointId,
    );
    if (destination === undefined) {
      // The endpoint was deleted since: nothing to deliver to.
      await this.queue.ack(claim);
      return;
    }
    const attempt = delivery.attempts + 1;
    const now = this.clock.now();
    const outcome = await safePost(destination.webhook, {
      allowPrivateNetworks: this.config.egress.allowPrivateNetworks,
      deadlineMs: this.config.webhooks.timeoutMs,
      agents: this.agents,
      body: delivery.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'notify-webhooks/1',
        ...webhookSignatureHeaders(destination.secret, delivery.msgId, delivery.body, now),
      },
    }).then(
      (posted) => ({ status: posted.status, excerpt: posted.excerpt }),
      (error: unknown) => ({ error: error instanceof Error ? error.message.slice(0, 200) : 'network error' }),
    );
    const status = 'status' in outcome ? outcome.status : undefined;
    const next = this.schedule[attempt];
    const retrying = isRetryableStatus(status) && next !== undefined;
    const nextAttemptAt = retrying ? this.clock.now() + next : undefined;
    // The schedule gives the wait before each attempt: after attempt n failed, schedule[n].
    if (nextAttemptAt !== undefined) await this.reschedule(delivery, nextAttemptAt, attempt);
    else await this.queue.ack(claim);
    const delivered = status !== undefined && status >= 200 && status < 300;
    this.record(delivery, webhookResult(outcome, attempt, retrying), retrying ? undefined : delivered, now);
    await this.remember(delivery, {
      msgId: delivery.msgId,
      eventType: eventTypeOf(delivery.body),
      ...(delivery.trackingId !== undefined ? { trackingId: delivery.trackingId } : {}),
      at: now,
      ...('status' in outcome ? { statusCode: outcome.status } : { error: outcome.error }),
      body: 'excerpt' in outcome ? outcome.excerpt : '',
      durationMs: this.clock.now() - now,
      status: retrying ? 'retrying' : delivered ? 'delivered' : 'failed',
      ...(nextAttemptAt !== undefined ? { nextAttemptAt } : {}),
      // Kept so the delivery can be queued again on request; a payload too big to keep is not.
      ...(Buffer.byteLength(delivery.body) <= KEPT_PAYLOAD_BYTES
        ? { delivery: { ...delivery, attempts: 0 } }
        : {}),
    });
  }

  /** The endpoint's recent attempts gain this one; the delivery goes on whether or not that works. */
  private async remember(delivery: WebhookDelivery, attempt: WebhookAttempt): Promise<void> {
    const scope = { accountId: delivery.accountId, envId: delivery.envId };
    const outcome = await this.attempts
      .record(scope, delivery.endpointId, attempt)
      .catch((error: unknown) => {
        this.logger.warn({ err: error, msgId: delivery.msgId }, 'could not record a webhook attempt');
        return undefined;
      });
    if (outcome === 'buffer-full' || outcome === 'pool-full')
      this.logger.warn({ msgId: delivery.msgId, outcome }, 'a webhook attempt was not recorded');
  }

  private reschedule(delivery: WebhookDelivery, dueAt: number, attempts: number): Promise<void> {
    return this.queue.schedule([{ ...delivery, attempts }], dueAt);
  }

  /**
   * The attempt's outcome on the event's log record, when the log has a field for it and this is
   * the event's primary endpoint (batched); every outcome goes to the dispatcher's own log.
   */
  private record(
    delivery: WebhookDelivery,
    result: string,
    delivered: boolean | undefined,
    now: number,
  ): void {
    this.logger.debug(
      { msgId: delivery.msgId, endpointId: delivery.endpointId, trackingId: delivery.trackingId, result },
      'webhook attempt',
    );
    if (delivery.trackingId === undefined || delivery.resField === undefined) return;
    const fields = {
      [delivery.resField]: result,
      // Whether it got through, once that is known (a success, or the last attempt).
      ...(delivery.deliveredField !== undefined && delivered !== undefined
        ? { [delivery.deliveredField]: delivered }
        : {}),
    } as LogFields;
    this.outcomes.push(
      this.events.event(
        { accountId: delivery.accountId, envId: delivery.envId, trackingId: delivery.trackingId },
        'webhook_attempt',
        fields,
        undefined,
        now,
      ),
    );
    this.recordTimer ??= setTimeout(() => void this.flushOutcomes(), RECORD_DELAY_MS);
  }

  private async flushOutcomes(): Promise<void> {
    this.recordTimer = undefined;
    const batch = this.outcomes.splice(0, this.outcomes.length);
    if (batch.length === 0) return;
    await this.events.publish(...batch).catch((error: unknown) => {
      this.logger.warn({ err: error, outcomes: batch.length }, 'could not log webhook outcomes');
    });
  }
}

/** The event type a delivery's payload names (every payload has one). */
function eventTypeOf(body: string): string {
  const payload: unknown = JSON.parse(body);
  return typeof payload === 'object' && payload !== null && 'eventType' in payload
    ? String(payload.eventType)
    : 'unknown';
}
