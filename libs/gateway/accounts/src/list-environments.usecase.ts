import { Injectable } from '@nestjs/common';
import type { TenantScope } from '@notify/domain';
import { AccountRepository } from '@notify/store';
import { EnvironmentPresenter, type EnvironmentView } from './environment.presenter';

/** The environments a key sees: its own only. */
@Injectable()
export class ListEnvironmentsUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly presenter: EnvironmentPresenter,
  ) {}

  async execute(scope: TenantScope): Promise<EnvironmentView[]> {
    const environment = await this.accounts.getEnvironment(scope.accountId, scope.envId);
    return environment === undefined ? [] : [await this.presenter.present(environment)];
  }
}
