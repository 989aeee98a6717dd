import { Injectable } from '@nestjs/common';
import { AccountRepository } from '@notify/store';
import { EnvironmentPresenter, type EnvironmentView } from './environment.presenter';
import type { AccountReach } from './reach';

/**
 * The environments a caller sees: a key its own only, a member every environment of the account
 * (oldest first); client secrets masked for the `member` role.
 */
@Injectable()
export class ListEnvironmentsUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly presenter: EnvironmentPresenter,
  ) {}

  async execute(reach: AccountReach, viewer: { readonly seesSecrets: boolean }): Promise<EnvironmentView[]> {
    if (reach.envId !== undefined) {
      const environment = await this.accounts.getEnvironment(reach.accountId, reach.envId);
      return environment === undefined ? [] : [await this.presenter.present(environment, viewer)];
    }
    const environments = await this.accounts.listEnvironments(reach.accountId);
    environments.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.envId.localeCompare(b.envId));
    return Promise.all(environments.map((environment) => this.presenter.present(environment, viewer)));
  }
}
