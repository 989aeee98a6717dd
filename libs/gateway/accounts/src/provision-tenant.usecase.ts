import { Injectable } from '@nestjs/common';
import { AccountRepository, ApiKeyRepository } from '@notify/store';
import { randomBytes, randomUUID } from 'node:crypto';
import { hashApiKey, keyPrefix, newApiKey } from '@notify/gateway-auth';

export interface ProvisionedTenant {
  readonly accountId: string;
  readonly envId: string;
  readonly apiKey: string;
  /** False when the account already existed (then apiKey is the one given, or none was created). */
  readonly created: boolean;
}

const DEFAULT_ACCOUNT = 'default';

/**
 * The first account, environment and API key of an installation. Idempotent: the account is
 * created once; a given key (BOOTSTRAP_API_KEY) is registered if it is not yet.
 */
@Injectable()
export class ProvisionTenantUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeyRepository,
  ) {}

  async execute(options: { apiKey?: string; now?: Date } = {}): Promise<ProvisionedTenant | undefined> {
    const now = (options.now ?? new Date()).toISOString();
    const existing = await this.accounts.getAccount(DEFAULT_ACCOUNT);
    let envId =
      existing === undefined ? undefined : (await this.accounts.listEnvironments(DEFAULT_ACCOUNT))[0]?.envId;
    const created = existing === undefined;
    if (created)
      await this.accounts.createAccount({
        accountId: DEFAULT_ACCOUNT,
        name: 'Default account',
        createdAt: now,
      });
    if (envId === undefined) {
      envId = randomUUID();
      await this.accounts.createEnvironment({
        accountId: DEFAULT_ACCOUNT,
        envId,
        title: 'Development',
        secret: randomBytes(32).toString('base64url'),
        secureMode: false,
        disabledChannels: [],
        test: false,
        createdAt: now,
      });
    }
    if (options.apiKey === undefined && !created) return undefined;
    const apiKey = options.apiKey ?? newApiKey();
    await this.keys.create({
      keyId: randomUUID(),
      accountId: DEFAULT_ACCOUNT,
      envId,
      keyHash: hashApiKey(apiKey),
      prefix: keyPrefix(apiKey),
      name: options.apiKey === undefined ? 'first key' : 'bootstrap key',
      createdAt: now,
    });
    return { accountId: DEFAULT_ACCOUNT, envId, apiKey, created };
  }
}
