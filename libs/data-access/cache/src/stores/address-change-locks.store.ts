import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { randomUUID } from 'node:crypto';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/** Longer than any change to an environment's addresses takes; a crashed holder's lock expires. */
const LOCK_TTL_MS = 10_000;

/** One lock per environment, across gateways, under which its inbound addresses change. */
@Injectable()
export class AddressChangeLocksStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /** Takes the environment's lock; answers its holder token, or undefined when another holds it. */
  async acquire(scope: TenantScope): Promise<string | undefined> {
    const holder = randomUUID();
    return (await this.coordination.setIfAbsent(lockKey(scope), holder, LOCK_TTL_MS)) ? holder : undefined;
  }

  /** Releases the lock only while `holder` still holds it (it expires after LOCK_TTL_MS). */
  async release(scope: TenantScope, holder: string): Promise<void> {
    const lock = lockKey(scope);
    if ((await this.coordination.get(lock)) === holder) await this.coordination.delete(lock);
  }
}

const lockKey = (scope: TenantScope) => `addresses/lock/${scope.accountId}/${scope.envId}`;
