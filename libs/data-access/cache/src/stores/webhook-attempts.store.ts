import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { z } from 'zod';
import { type AppendOutcome, type BufferLimits, COORDINATION, type CoordinationStore } from '../cache.port';
import { parseJson, webhookDeliverySchema } from './webhook-deliveries.store';

/** Attempts kept per endpoint: the newest, in segments of SEGMENT_SIZE. */
export const WEBHOOK_ATTEMPTS_KEPT = 500;
/** How long an attempt is kept. */
export const WEBHOOK_ATTEMPTS_TTL_MS = 7 * 24 * 60 * 60 * 1_000;
/** A delivery's payload bigger than this is not kept with its attempts (it cannot be redelivered). */
export const KEPT_PAYLOAD_BYTES = 16 * 1024;

const SEGMENT_SIZE = 100;
const SEGMENTS = WEBHOOK_ATTEMPTS_KEPT / SEGMENT_SIZE;
const WEEK_MS = WEBHOOK_ATTEMPTS_TTL_MS;
/**
 * An attempt is at most KEPT_PAYLOAD_BYTES of payload, a 512-byte response excerpt and a few short
 * fields, so a segment never reaches its byte cap; the caps bound a segment should that change.
 */
const LIMITS: BufferLimits = {
  maxItems: SEGMENT_SIZE,
  maxBytes: 2 * 1024 * 1024,
  poolMaxBytes: (SEGMENTS + 1) * 2 * 1024 * 1024,
};

/** Where a delivery stands after an attempt. */
export const webhookAttemptStatusSchema = z.enum(['delivered', 'retrying', 'failed']);

/** One attempt of a delivery to an endpoint, as the dispatcher made it. */
export const webhookAttemptSchema = z.object({
  msgId: z.string(),
  eventType: z.string(),
  trackingId: z.string().optional(),
  /** Epoch milliseconds. */
  at: z.number(),
  statusCode: z.number().int().optional(),
  error: z.string().optional(),
  /** The start of the receiver's answer. */
  body: z.string(),
  durationMs: z.number(),
  /** Where the delivery stood after this attempt. */
  status: webhookAttemptStatusSchema,
  /** Epoch milliseconds, while `retrying`. */
  nextAttemptAt: z.number().optional(),
  /** The queued delivery, to queue again on request; absent when its payload was too big to keep. */
  delivery: webhookDeliverySchema.optional(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** Where one segment lives: a pool per endpoint and week, a buffer per segment number. */
interface Segment {
  readonly pool: string;
  readonly buffer: string;
}

/**
 * Each webhook endpoint's recent attempts, bounded: WEBHOOK_ATTEMPTS_KEPT of them, none older than
 * WEBHOOK_ATTEMPTS_TTL_MS. Attempts are numbered by a counter per endpoint and week and go to
 * segments of SEGMENT_SIZE; opening a segment drops the one SEGMENTS behind (across the week's
 * turn too), so the oldest hundred go at once. Whole segments are dropped, never single items, so
 * nothing of a dropped attempt (its id included) outlives it, and a week's pool expires with its
 * segments. The counter is per week so that it can expire (after two weeks, when no reader needs
 * it) without ever numbering a live segment again.
 */
@Injectable()
export class WebhookAttemptsStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  async record(scope: TenantScope, endpointId: string, attempt: WebhookAttempt): Promise<AppendOutcome> {
    const week = Math.floor(attempt.at / WEEK_MS);
    const n = await this.coordination.increment(counterKey(scope, endpointId, week), 1, 2 * WEEK_MS);
    const index = Math.floor((n - 1) / SEGMENT_SIZE);
    const { pool, buffer } = segment(scope, endpointId, week, index);
    const outcome = await this.coordination.append(
      pool,
      buffer,
      { id: String(n), value: JSON.stringify(attempt) },
      LIMITS,
      WEBHOOK_ATTEMPTS_TTL_MS,
    );
    if ((n - 1) % SEGMENT_SIZE === 0) await this.dropBehind(scope, endpointId, week, index);
    return outcome;
  }

  /** The endpoint's attempts of the last WEBHOOK_ATTEMPTS_TTL_MS before `now`, newest first. */
  async recent(scope: TenantScope, endpointId: string, now: number): Promise<WebhookAttempt[]> {
    const week = Math.floor(now / WEEK_MS);
    const segments = (await this.segmentsUpTo(scope, endpointId, week)).slice(0, SEGMENTS);
    const values = await Promise.all(
      segments.map((s) => this.coordination.readBuffer(s.pool, s.buffer, 0, SEGMENT_SIZE)),
    );
    return values
      .flat()
      .flatMap((value) => {
        const parsed = webhookAttemptSchema.safeParse(parseJson(value));
        return parsed.success && parsed.data.at > now - WEBHOOK_ATTEMPTS_TTL_MS ? [parsed.data] : [];
      })
      .sort((a, b) => b.at - a.at);
  }

  /** The segments of this week and the last, newest first. */
  private async segmentsUpTo(scope: TenantScope, endpointId: string, week: number): Promise<Segment[]> {
    const segments: Segment[] = [];
    for (const w of [week, week - 1]) {
      const last = await this.lastSegment(scope, endpointId, w);
      for (let index = last; index >= 0; index--) segments.push(segment(scope, endpointId, w, index));
    }
    return segments;
  }

  /** Drops the segment SEGMENTS before `index` of `week`, which may be one of the week before. */
  private async dropBehind(
    scope: TenantScope,
    endpointId: string,
    week: number,
    index: number,
  ): Promise<void> {
    let [w, behind] = [week, index - SEGMENTS];
    if (behind < 0)
      [w, behind] = [week - 1, (await this.lastSegment(scope, endpointId, week - 1)) + 1 + behind];
    if (behind < 0) return;
    const { pool, buffer } = segment(scope, endpointId, w, behind);
    await this.coordination.dropBuffer(pool, buffer);
  }

  /** The week's newest segment number; -1 when the week has none. */
  private async lastSegment(scope: TenantScope, endpointId: string, week: number): Promise<number> {
    const count = Number((await this.coordination.get(counterKey(scope, endpointId, week))) ?? '0');
    return Math.floor((count - 1) / SEGMENT_SIZE);
  }
}

const endpointKey = (scope: TenantScope, endpointId: string, week: number): string =>
  `webhook-attempts/${scope.accountId}/${scope.envId}/${week}/${endpointId}`;

const counterKey = (scope: TenantScope, endpointId: string, week: number): string =>
  `${endpointKey(scope, endpointId, week)}/count`;

const segment = (scope: TenantScope, endpointId: string, week: number, index: number): Segment => ({
  pool: endpointKey(scope, endpointId, week),
  buffer: String(index),
});
