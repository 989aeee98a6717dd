import { Injectable } from '@nestjs/common';
import type { ApiKey } from '@notify/domain';
import { ApiKeyResolver } from '@notify/gateway-auth';
import { InjectClock } from '@notify/platform';
import { AccountRepository, ApiKeyRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { notInReach } from './key.presenter';
import type { AccountReach } from './reach';

/**
 * Revokes a key by id: a key revokes keys of its own environment, a member any key of the account.
 * Its environment's key slot is given back, and the key stops working at once on every gateway.
 */
@Injectable()
export class RevokeKeyUseCase {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly accounts: AccountRepository,
    private readonly resolver: ApiKeyResolver,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: { readonly reach: AccountReach; readonly keyId: string }): Promise<void> {
    const { reach, keyId } = command;
    const envId = reach.envId ?? (await this.keys.findInAccount(reach.accountId, keyId))?.envId;
    const now = new Date(this.clock.now()).toISOString();
    const revoked: ApiKey | undefined =
      envId === undefined
        ? undefined
        : await this.keys.revoke({ accountId: reach.accountId, envId }, keyId, now);
    if (revoked === undefined) throw notInReach(`active key ${keyId}`);
    await this.accounts.releaseKeySlot(revoked.accountId, revoked.envId);
    // Evicted here and, through pub/sub, on every other gateway: no replica honours it from cache.
    await this.resolver.revoked(revoked.keyHash);
  }
}
