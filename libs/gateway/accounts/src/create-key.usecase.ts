import { Injectable } from '@nestjs/common';
import type { ApiKeyType } from '@notify/domain';
import { missingEnvId } from '@notify/gateway-auth';
import { InjectClock } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { type CreatedKeyView, createdKeyView, notInReach } from './key.presenter';
import { KeyIssuer } from './key-issuer';
import type { AccountReach } from './reach';

export interface CreateKeyCommand {
  readonly reach: AccountReach;
  /** The environment named by the body's `environmentId`, else by `?envId=`. */
  readonly environmentId?: string;
  readonly keyType: ApiKeyType;
  readonly name: string;
}

/**
 * Creates a secret or public key in an environment: a key's own (naming another is 404), or for a
 * member the environment named, which must be one of the account (missing: 400 MISSING_ENV_ID).
 */
@Injectable()
export class CreateKeyUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly issuer: KeyIssuer,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: CreateKeyCommand): Promise<CreatedKeyView> {
    const { reach, environmentId } = command;
    const envId = environmentId ?? reach.envId;
    if (envId === undefined) throw missingEnvId();
    if (reach.envId !== undefined && envId !== reach.envId) throw notInReach(`environment ${envId}`);
    const environment = await this.accounts.getEnvironment(reach.accountId, envId);
    if (environment === undefined) throw notInReach(`environment ${envId}`);
    const now = new Date(this.clock.now()).toISOString();
    const { record, key } = await this.issuer.issueOfType(environment, command.keyType, command.name, now);
    return createdKeyView(record, key);
  }
}
