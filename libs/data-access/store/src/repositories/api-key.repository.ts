import { Inject, Injectable } from '@nestjs/common';
import type { ApiKey, TenantScope } from '@notify/domain';
import { type ApiKeyDoc, Collections } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

@Injectable()
export class ApiKeyRepository {
  private readonly keys: DocumentCollection<ApiKeyDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.keys = store.collection(Collections.apiKeys);
  }

  create(key: ApiKey): Promise<boolean> {
    return this.keys.insert({ ...key });
  }

  /** Authentication's entry point: the scope is what the key resolves to, so it cannot be an input. */
  findByHash(keyHash: string): Promise<ApiKey | undefined> {
    return this.keys.get([keyHash]);
  }

  list(scope: TenantScope): Promise<ApiKey[]> {
    return this.keys.find({ accountId: scope.accountId, envId: scope.envId });
  }

  /** One key of the scope by its id (an index lookup; another scope's key is not found). */
  async get(scope: TenantScope, keyId: string): Promise<ApiKey | undefined> {
    const [key] = await this.keys.find({ accountId: scope.accountId, envId: scope.envId, keyId }, 1);
    return key;
  }

  /** A key of any environment of the account, by its id (a member administers the whole account). */
  async findInAccount(accountId: string, keyId: string): Promise<ApiKey | undefined> {
    const [key] = await this.keys.find({ accountId, keyId }, 1);
    return key;
  }

  /** Revokes an active key; resolves to it (with its hash, to evict caches), or undefined. */
  async revoke(scope: TenantScope, keyId: string, now: string): Promise<ApiKey | undefined> {
    const key = await this.get(scope, keyId);
    if (key === undefined) return undefined;
    let revoked = false;
    await this.keys.modify([key.keyHash], (current) => {
      revoked = current !== undefined && current.revokedAt === undefined;
      return revoked && current !== undefined ? { ...current, revokedAt: now } : undefined;
    });
    return revoked ? key : undefined;
  }
}
