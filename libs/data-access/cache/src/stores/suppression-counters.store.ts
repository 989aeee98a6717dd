import { Inject, Injectable } from '@nestjs/common';
import {
  dedupKey,
  type NormalizedSend,
  type SuppressionLedger,
  type TenantScope,
  type Throttling,
  throttleKey,
  throttleWindowMs,
} from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/**
 * The type's deduplication records and throttling counters, atomic across routers. Each send's
 * throttling verdict is kept for the window (`counting` while it is decided, then `over` or
 * `within`), so routing the same send again (a redelivery, a repeated release) counts nothing twice.
 */
@Injectable()
export class SuppressionCountersStore implements SuppressionLedger {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  async firstOfDuplicates(
    scope: TenantScope,
    send: NormalizedSend,
    trackingId: string,
    ttlMs: number,
  ): Promise<boolean> {
    const key = dedupKey(scope, send);
    if (await this.coordination.setIfAbsent(key, trackingId, ttlMs)) return true;
    return (await this.coordination.get(key)) === trackingId;
  }

  async countOnce(
    scope: TenantScope,
    throttling: Throttling,
    send: NormalizedSend,
    trackingId: string,
    over: (count: number) => boolean,
  ): Promise<boolean> {
    const window = throttleWindowMs(throttling);
    const verdict = `throttled/${scope.accountId}/${scope.envId}/${trackingId}`;
    if (await this.coordination.setIfAbsent(verdict, 'counting', window)) {
      const counted = over(
        await this.coordination.increment(throttleKey(scope, throttling, send), 1, window),
      );
      await this.coordination.set(verdict, counted ? 'over' : 'within', window);
      return counted;
    }
    return (await this.coordination.get(verdict)) === 'over';
  }
}
