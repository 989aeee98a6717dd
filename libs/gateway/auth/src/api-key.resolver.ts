import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '@notify/cache';
import { AccountRepository, ApiKeyRepository } from '@notify/store';
import { hashApiKey } from './api-key';
import type { Tenant } from './tenant';

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;
/** Gateways tell each other when a key is revoked, so no replica honours it from its cache. */
export const REVOKED_KEYS_CHANNEL = 'api-keys.revoked';

interface Entry {
  readonly hash: string;
  readonly tenant: Tenant | undefined;
  readonly expires: number;
}

/**
 * Resolves an API key to its tenant. Lookups are cached briefly (a send must not cost a database
 * round trip); revocation evicts the key on every gateway through pub/sub, and the TTL bounds
 * staleness should a message be lost.
 */
@Injectable()
export class ApiKeyResolver implements OnModuleInit, OnModuleDestroy {
  /** Keyed by the presented key, so a cache hit costs no hashing; entries remember their hash. */
  private readonly cache = new Map<string, Entry>();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly accounts: AccountRepository,
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = await this.coordination.subscribe(REVOKED_KEYS_CHANNEL, (hash) =>
      this.cache.delete(hash),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.unsubscribe?.();
  }

  async resolve(key: string, now = Date.now()): Promise<Tenant | undefined> {
    const cached = this.cache.get(key);
    if (cached !== undefined && cached.expires > now) return cached.tenant;
    const hash = hashApiKey(key);
    const tenant = await this.lookup(hash);
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value ?? '');
    this.cache.set(key, { hash, tenant, expires: now + TTL_MS });
    return tenant;
  }

  /** Evicts a revoked key here and on every other gateway. */
  async revoked(keyHash: string): Promise<void> {
    this.evict(keyHash);
    await this.coordination.publish(REVOKED_KEYS_CHANNEL, keyHash);
  }

  private evict(keyHash: string): void {
    for (const [key, entry] of this.cache) if (entry.hash === keyHash) this.cache.delete(key);
  }

  private async lookup(hash: string): Promise<Tenant | undefined> {
    const key = await this.keys.findByHash(hash);
    if (key === undefined || key.revokedAt !== undefined) return undefined;
    const environment = await this.accounts.getEnvironment(key.accountId, key.envId);
    if (environment === undefined) return undefined;
    return { accountId: key.accountId, envId: key.envId, keyId: key.keyId, test: environment.test };
  }
}
