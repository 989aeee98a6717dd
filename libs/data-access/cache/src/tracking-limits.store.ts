import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from './cache.port';

const MINUTE_MS = 60_000;

/**
 * What the public email tracking links count, shared by every replica: opens per message (one
 * per window: a replayed pixel is no new open) and requests per client address (fixed one-minute
 * windows).
 */
@Injectable()
export class TrackingLimitsStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /**
   * True for the first open of the message since `windowMs` ago; false for the others in the
   * window, which began at that first open.
   */
  firstOpen(
    scope: { readonly accountId: string; readonly envId: string },
    trackingId: string,
    windowMs: number,
    now = Date.now(),
  ): Promise<boolean> {
    return this.coordination.setIfAbsent(
      `tracking-opens/${scope.accountId}/${scope.envId}/${trackingId}`,
      String(now),
      windowMs,
    );
  }

  /** Counts a request from `address`; answers how many it made this minute, and when the minute ends. */
  async request(address: string, now = Date.now()): Promise<{ count: number; resetAt: number }> {
    const window = Math.floor(now / MINUTE_MS);
    const resetAt = (window + 1) * MINUTE_MS;
    const count = await this.coordination.increment(
      `tracking-requests/${address}/${window}`,
      1,
      resetAt - now + 1,
    );
    return { count, resetAt };
  }
}
