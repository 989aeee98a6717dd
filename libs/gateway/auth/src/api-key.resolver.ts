import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ApiKeyRevocationsStore } from '@notify/cache';
import { InjectClock, isTransientError } from '@notify/platform';
import { type Clock, LruCache } from '@notify/util';
import { AccountRepository, ApiKeyRepository } from '@notify/store';
import { hashApiKey, isWellFormedApiKey } from './api-key';
import type { Tenant } from './tenant';

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  readonly tenant: Tenant | undefined;
  readonly expires: number;
}

/**
 * Resolves an API key to its tenant. Lookups are cached briefly by the key's hash (a send must not
 * cost a database round trip, and a raw key is never kept in memory as a map key); revocation
 * evicts that hash on every gateway through pub/sub, and the TTL bounds staleness should a message
 * be lost. While the store is unreachable an expired entry keeps serving. A key of the wrong shape
 * is refused before any hashing or lookup.
 */
@Injectable()
export class ApiKeyResolver implements OnModuleInit, OnModuleDestroy {
  private readonly cache = new LruCache<string, Entry>({ maxEntries: MAX_ENTRIES });
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly accounts: AccountRepository,
    private readonly revocations: ApiKeyRevocationsStore,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.revocations.subscribe((hash) => this.cache.delete(hash));
  }

  async onModuleDestroy(): Promise<void> {
    await this.unsubscribe?.();
  }

  async resolve(key: string): Promise<Tenant | undefined> {
    if (!isWellFormedApiKey(key)) return undefined;
    const now = this.clock.now();
    const hash = hashApiKey(key);
    const cached = this.cache.get(hash);
    if (cached !== undefined && cached.expires > now) return cached.tenant;
    let tenant: Tenant | undefined;
    try {
      tenant = await this.lookup(hash);
    } catch (error) {
      // The store is down (a failover): a key seen lately keeps working, so sends are still
      // accepted onto the bus; revocations still evict it. Otherwise the error answers 503.
      if (cached !== undefined && isTransientError(error)) return cached.tenant;
      throw error;
    }
    this.cache.set(hash, { tenant, expires: now + TTL_MS });
    return tenant;
  }

  /** Evicts a revoked key here and on every other gateway. */
  async revoked(keyHash: string): Promise<void> {
    this.cache.delete(keyHash);
    await this.revocations.announce(keyHash);
  }

  private async lookup(hash: string): Promise<Tenant | undefined> {
    const key = await this.keys.findByHash(hash);
    if (key === undefined || key.revokedAt !== undefined) return undefined;
    const environment = await this.accounts.getEnvironment(key.accountId, key.envId);
    if (environment === undefined) return undefined;
    return { accountId: key.accountId, envId: key.envId, keyId: key.keyId, test: environment.test };
  }
}
