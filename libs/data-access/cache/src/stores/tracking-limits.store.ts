import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';

const MINUTE_MS = 60_000;

/**
 * What the public email tracking links count, shared by every replica: opens per message (one
 * per window: a replayed pixel is no new open) and requests per client address or per message
 * (fixed one-minute windows).
 */
@Injectable()
export class TrackingLimitsStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /**
   * True for the first open of the message since `windowMs` ago; false for the others in the
   * window, which began at that first open.
   */
  firstOpen(scope: TenantScope, trackingId: string, windowMs: number, now: number): Promise<boolean> {
    return this.coordination.setIfAbsent(openKey(scope, trackingId), String(now), windowMs);
  }

  /** Forgets the message's open in its window (its recording failed), so the next one counts. */
  forgetOpen(scope: TenantScope, trackingId: string): Promise<void> {
    return this.coordination.delete(openKey(scope, trackingId));
  }

  /**
   * Counts a request charged to `who` (a client address, or a message); answers how many it has
   * this minute, and when the minute ends.
   */
  async request(who: string, now: number): Promise<{ count: number; resetAt: number }> {
    const window = Math.floor(now / MINUTE_MS);
    const resetAt = (window + 1) * MINUTE_MS;
    const count = await this.coordination.increment(
      `tracking-requests/${who}/${window}`,
      1,
      resetAt - now + 1,
    );
    return { count, resetAt };
  }
}

const openKey = (scope: TenantScope, trackingId: string) =>
  `tracking-opens/${scope.accountId}/${scope.envId}/${trackingId}`;
