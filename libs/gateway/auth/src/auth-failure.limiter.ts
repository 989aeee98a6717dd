import { Injectable } from '@nestjs/common';
import { AuthFailuresStore } from '@notify/cache';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { type Clock, LruCache, RateLimitedError } from '@notify/util';

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
    private readonly failures: AuthFailuresStore,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  /** Throws 429 when the address is blocked. */
  check(address: string): void {
    const now = this.clock.now();
    const until = this.blockedUntil.get(address);
    if (until === undefined) return;
    if (until <= now) this.blockedUntil.delete(address);
    else throw tooMany(until - now);
  }

  /** Counts a failure; throws 429 when it was one too many. */
  async failed(address: string): Promise<void> {
    const now = this.clock.now();
    const { count, windowEnd } = await this.failures.failed(address, now);
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
