import { Injectable } from '@nestjs/common';
import type { Environment, TenantScope } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig } from '@notify/platform';
import { VapidKeyring } from '@notify/providers';
import { AccountRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { randomBytes, randomUUID } from 'node:crypto';
import type { CreateEnvironmentBody } from './environment.schemas';
import { EnvironmentPresenter, type EnvironmentView } from './environment.presenter';
import { KeyIssuer } from './key-issuer';
import { limitReached } from './limits';

/**
 * Creates an environment in the caller's account (a key's, or the account a member acts in) (up to MAX_ENVIRONMENTS_PER_ACCOUNT) and answers it
 * with the first key of the new environment, never a key to an existing one. New environments start
 * in secure mode: browser calls need the user's HMAC.
 */
@Injectable()
export class CreateEnvironmentUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly issuer: KeyIssuer,
    private readonly vapid: VapidKeyring,
    private readonly presenter: EnvironmentPresenter,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: {
    /** The account to create it in (a caller's environment scope will do). */
    readonly scope: Pick<TenantScope, 'accountId'>;
    readonly body: CreateEnvironmentBody;
  }): Promise<EnvironmentView & { apiKey: string }> {
    const { scope, body } = command;
    const now = new Date(this.clock.now()).toISOString();
    const environment: Environment = {
      accountId: scope.accountId,
      envId: randomUUID(),
      title: body.title,
      secret: randomBytes(32).toString('base64url'),
      secureMode: true,
      disabledChannels: [],
      test: body.test ?? false,
      createdAt: now,
    };
    const max = this.config.limits.environmentsPerAccount;
    if (!(await this.accounts.createEnvironment(environment, max)))
      throw limitReached(
        `${max} environments per account`,
        'MAX_ENVIRONMENTS_PER_ACCOUNT',
        'Reuse an existing environment.',
      );
    // Its web push key pair is made with it (environments made before web push get theirs on first use).
    await this.vapid.keysOf(environment);
    const { key } = await this.issuer.issue(environment, 'first key', now);
    // Its creator administers environments, so sees its secret.
    return { ...(await this.presenter.present(environment, { seesSecrets: true })), apiKey: key };
  }
}
