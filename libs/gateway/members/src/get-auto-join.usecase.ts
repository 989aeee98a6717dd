import { Injectable } from '@nestjs/common';
import { organizationIdOf } from '@notify/domain';
import { AccountRepository, AutoJoinRepository } from '@notify/store';

export interface AutoJoinView {
  readonly organizationId: string;
  readonly domains: string[];
}

/** The email domains whose people join the caller's account on their first sign-in. */
@Injectable()
export class GetAutoJoinUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly autoJoin: AutoJoinRepository,
  ) {}

  async execute(accountId: string): Promise<AutoJoinView> {
    const account = await this.accounts.getAccount(accountId);
    return {
      organizationId: organizationIdOf(account ?? { accountId }),
      domains: await this.autoJoin.list(accountId),
    };
  }
}
