import { Injectable } from '@nestjs/common';
import { AccountRepository, AutoJoinRepository } from '@notify/store';
import { organizationOf } from './member-errors';

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
      organizationId: account === undefined ? accountId : organizationOf(account),
      domains: await this.autoJoin.list(accountId),
    };
  }
}
