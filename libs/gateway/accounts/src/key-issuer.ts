import { Injectable } from '@nestjs/common';
import type { ApiKey, ApiKeyType, TenantScope } from '@notify/domain';
import { hashApiKey, keyPrefix, newApiKey } from '@notify/gateway-auth';
import { type AppConfig, InjectConfig } from '@notify/platform';
import { AccountRepository, ApiKeyRepository } from '@notify/store';
import { randomUUID } from 'node:crypto';
import { limitReached } from './limits';

/**
 * Creates API keys, keeping each environment under MAX_KEYS_PER_ENVIRONMENT active keys (secret and
 * public together).
 */
@Injectable()
export class KeyIssuer {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly accounts: AccountRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** A new secret key (or `given`, e.g. BOOTSTRAP_API_KEY) for the environment; the key itself is returned once. */
  issue(
    scope: TenantScope,
    name: string,
    now: string,
    given?: string,
  ): Promise<{ record: ApiKey; key: string }> {
    return this.store(scope, name, now, given ?? newApiKey('secret'), 'secret');
  }

  /** A new key of the given type for the environment; the key itself is returned once. */
  issueOfType(
    scope: TenantScope,
    keyType: ApiKeyType,
    name: string,
    now: string,
  ): Promise<{ record: ApiKey; key: string }> {
    return this.store(scope, name, now, newApiKey(keyType), keyType);
  }

  private async store(
    scope: TenantScope,
    name: string,
    now: string,
    key: string,
    keyType: ApiKeyType,
  ): Promise<{ record: ApiKey; key: string }> {
    const max = this.config.limits.keysPerEnvironment;
    if (!(await this.accounts.reserveKeySlot(scope.accountId, scope.envId, max)))
      throw limitReached(
        `${max} active API keys per environment`,
        'MAX_KEYS_PER_ENVIRONMENT',
        'Revoke keys you no longer use.',
      );
    const record: ApiKey = {
      keyId: randomUUID(),
      accountId: scope.accountId,
      envId: scope.envId,
      keyHash: hashApiKey(key),
      prefix: keyPrefix(key),
      name,
      createdAt: now,
      keyType,
    };
    if (!(await this.keys.create(record))) {
      await this.accounts.releaseKeySlot(scope.accountId, scope.envId);
      throw new Error('an API key with this hash exists already');
    }
    return { record, key };
  }
}
