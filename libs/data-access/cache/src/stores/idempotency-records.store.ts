import { Inject, Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { COORDINATION, type CoordinationStore } from '../cache.port';

/** How long an idempotency key answers with its first send. */
const KEY_LIFETIME_MS = 86_400_000;

const recordSchema = z.object({
  fingerprint: z.string(),
  trackingId: z.string(),
  /** Set once the send is on the bus: the answer every retry gets. */
  messages: z.array(z.string()).optional(),
});

/** What an idempotency key stands for: the request it was first used with, and its answer once known. */
export type IdempotencyRecord = z.infer<typeof recordSchema>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * The `Idempotency-Key` records of an environment, shared by every gateway for 24 hours. The key is
 * stored by its hash only, so a caller's key never sits in the store.
 */
@Injectable()
export class IdempotencyRecordsStore {
  constructor(@Inject(COORDINATION) private readonly coordination: CoordinationStore) {}

  /** Records `first` under the key unless the key has a record already; answers the record that holds. */
  async claim(scope: TenantScope, key: string, first: IdempotencyRecord): Promise<IdempotencyRecord> {
    const stored = recordKey(scope, key);
    if (await this.coordination.setIfAbsent(stored, JSON.stringify(first), KEY_LIFETIME_MS)) return first;
    return (await this.get(scope, key)) ?? first;
  }

  /** The key's record, if it has one. */
  async get(scope: TenantScope, key: string): Promise<IdempotencyRecord | undefined> {
    const existing = await this.coordination.get(recordKey(scope, key));
    return existing === undefined ? undefined : recordSchema.parse(JSON.parse(existing));
  }

  /** Keeps the answer a retry with this key gets, for the key's lifetime from now. */
  async answered(scope: TenantScope, key: string, record: IdempotencyRecord): Promise<void> {
    await this.coordination.set(recordKey(scope, key), JSON.stringify(record), KEY_LIFETIME_MS);
  }
}

const recordKey = (scope: TenantScope, key: string) =>
  `idempotency/${scope.accountId}/${scope.envId}/${sha256(key)}`;
