import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/** How long a log query's result can be polled. */
const RESULT_TTL_MS = 60 * 60_000;
/** A query's slot is given back when it ends; should a gateway die mid-query, it lapses after this. */
const SLOT_TTL_MS = 5 * 60_000;

/**
 * Background log queries, shared by every gateway: the running-query slots of each environment and
 * the results, which any replica answers a poll from. `R` is the result's shape, stored as JSON.
 */
@Injectable()
export class LogQueriesStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /** Takes a slot when fewer than `limit` queries run in the environment; false (and no slot) otherwise. */
  async takeSlot(scope: TenantScope, limit: number): Promise<boolean> {
    const running = await this.coordination.increment(slotsKey(scope), 1, SLOT_TTL_MS);
    if (running <= limit) return true;
    await this.giveSlotBack(scope);
    return false;
  }

  async giveSlotBack(scope: TenantScope): Promise<void> {
    await this.coordination.increment(slotsKey(scope), -1, SLOT_TTL_MS);
  }

  /**
   * Replaces the query's result, kept for RESULT_TTL_MS from now, in one write: a poll between a
   * delete and a write would find no query (404) while it completes.
   */
  async putResult<R>(scope: TenantScope, queryId: string, result: R): Promise<void> {
    await this.coordination.set(resultKey(scope, queryId), JSON.stringify(result), RESULT_TTL_MS);
  }

  async result<R>(scope: TenantScope, queryId: string): Promise<R | undefined> {
    const stored = await this.coordination.get(resultKey(scope, queryId));
    return stored === undefined ? undefined : (JSON.parse(stored) as R);
  }
}

const slotsKey = (scope: TenantScope) => `log-query-slots/${scope.accountId}/${scope.envId}`;
const resultKey = (scope: TenantScope, queryId: string) =>
  `log-query/${scope.accountId}/${scope.envId}/${queryId}`;
