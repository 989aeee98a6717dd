import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '../cache.port';

const WINDOW_MS = 60_000;

/** Failed authentications per client address, counted across gateways in fixed one-minute windows. */
@Injectable()
export class AuthFailuresStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /** Counts a failure of `address` at `now`; answers how many it has this minute, and when the minute ends. */
  async failed(address: string, now: number): Promise<{ count: number; windowEnd: number }> {
    const window = Math.floor(now / WINDOW_MS);
    const windowEnd = (window + 1) * WINDOW_MS;
    const count = await this.coordination.increment(
      `auth-failures/${address}/${window}`,
      1,
      windowEnd - now + 1,
    );
    return { count, windowEnd };
  }
}
