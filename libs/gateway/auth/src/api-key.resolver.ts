import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ApiKeyRevocationsStore } from '@notify/cache';
import { InjectClock, isTransientError } from '@notify/platform';
import { type Clock, LruCache } from '@notify/util';
import { AccountRepository, ApiKeyRepository } from '@notify/store';
import { hashApiKey, isWellFormedApiKey } from './api-key';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyCaller } from './tenant';

const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  readonly tenant: KeyCaller | undefined;
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

  async resolve(key: string): Promise<KeyCaller | undefined> {
    if (!isWellFormedApiKey(key)) return undefined;
    return this.cached(hashApiKey(key), (hash) => this.lookup(hash));
  }

  /**
   * The older SDKs' `Basic clientId:clientSecret`: the environment's own secret (the one that signs
   * end users' hashes) acts as a secret key of that environment. Cached like keys, by a hash of both.
   */
  async resolveClientSecret(clientId: string, secret: string): Promise<KeyCaller | undefined> {
    if (clientId.length > 200 || secret.length === 0 || secret.length > 200) return undefined;
    return this.cached(ApiKeyResolver.clientSecretHash(clientId, secret), async () => {
      const environment = await this.accounts.findEnvironment(clientId);
      if (environment === undefined) return undefined;
      const [given, expected] = [Buffer.from(secret), Buffer.from(environment.secret)];
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return {
        kind: 'key',
        keyType: 'secret',
        accountId: environment.accountId,
        envId: environment.envId,
        keyId: 'client-secret',
        test: environment.test,
      };
    });
  }

  /** The hash under which a client secret is cached: what to evict (`revoked`) when the environment's secret is reset. */
  static clientSecretHash(clientId: string, secret: string): string {
    return createHash('sha256').update(`client-secret\0${clientId}\0${secret}`).digest('hex');
  }

  private async cached(
    hash: string,
    lookup: (hash: string) => Promise<KeyCaller | undefined>,
  ): Promise<KeyCaller | undefined> {
    const now = this.clock.now();
    const cached = this.cache.get(hash);
    if (cached !== undefined && cached.expires > now) return cached.tenant;
    let tenant: KeyCaller | undefined;
    try {
      tenant = await lookup(hash);
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

  private async lookup(hash: string): Promise<KeyCaller | undefined> {
    const key = await this.keys.findByHash(hash);
    if (key === undefined || key.revokedAt !== undefined) return undefined;
    const environment = await this.accounts.getEnvironment(key.accountId, key.envId);
    if (environment === undefined) return undefined;
    return {
      kind: 'key',
      keyType: key.keyType ?? 'secret',
      accountId: key.accountId,
      envId: key.envId,
      keyId: key.keyId,
      test: environment.test,
    };
  }
}
