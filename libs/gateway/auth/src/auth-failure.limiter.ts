import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '@notify/cache';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { LruCache, RateLimitedError } from '@notify/util';

const WINDOW_MS = 60_000;

/**
 * Failed authentications per client address, counted across gateways in the coordination store
 * (fixed one-minute windows). Past AUTH_FAILURES_PER_MINUTE an address is refused with 429 until
 * its window ends, before any key lookup. The block is remembered locally so a blocked client
 * costs no round trip; another gateway learns of it at that client's next failure there.
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly blockedUntil = new LruCache<string, number>({ maxEntries: 100_000 });

  constructor(
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Throws 429 when the address is blocked. */
  check(address: string, now = Date.now()): void {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return;
    if (until <= now) this.blockedUntil.delete(address);
    else throw tooMany(until - now);
  }

  /** Counts a failure; throws 429 when it was one too many. */
  async failed(address: string, now = Date.now()): Promise<void> {
    const window = Math.floor(now / WINDOW_MS);
    const windowEnd = (window + 1) * WINDOW_MS;
    const count = await this.coordination.increment(
      `auth-failures/${address}/${window}`,
      1,
      windowEnd - now + 1,
    );
    if (count > this.config.limits.authFailuresPerMinute) {
      this.blockedUntil.set(address, windowEnd);
      throw tooMany(windowEnd - now);
    }
  }
}

const tooMany = (waitMs: number) =>
  new RateLimitedError(
    {
      code: 'TOO_MANY_FAILED_AUTHENTICATIONS',
      message: 'Too many requests with invalid credentials from this address.',
      fix: 'Check the API key; retry after the time in Retry-After.',
    },
    Math.max(1, Math.ceil(waitMs / 1_000)),
  );
