import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { ApiKeyRepository } from '@notify/store';
import { listedKeyView, type ListedKeyView } from './key.presenter';

/** The keys of one environment, secret and public, revoked ones included, masked (oldest first). */
@Injectable()
export class ListKeysUseCase {
  constructor(private readonly keys: ApiKeyRepository) {}

  async execute(scope: TenantScope): Promise<{ keys: ListedKeyView[] }> {
    const keys = await this.keys.list(scope);
    keys.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
    return { keys: keys.map(listedKeyView) };
  }
}
