import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/**
 * Turns at a periodic job shared by replicas: in each period of `periodMs` (counted from the
 * epoch) one caller gets the turn, however many replicas ask, so the job runs once per period.
 */
@Injectable()
export class PeriodicTurnsStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /** True for the first caller in the period that contains `now`. */
  take(job: string, periodMs: number, now: number): Promise<boolean> {
    const period = Math.floor(now / periodMs);
    return this.coordination.setIfAbsent(`turns/${job}/${period}`, '1', periodMs * 2);
  }
}
