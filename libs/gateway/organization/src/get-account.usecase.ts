import { Injectable } from '@nestjs/common';
import type { Caller } from '@notify/gateway-auth';
import { AccountRepository } from '@notify/store';
import { NotFoundError } from '@notify/util';
import { type AccountView, accountView } from './account.view';

export const accountNotFound = (accountId: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No account ${accountId}.`,
    fix: 'Name an account you are a member of (?accountId=).',
  });

/** The account the caller acts in: a key's own, a member's `?accountId=` or first account. */
@Injectable()
export class GetAccountUseCase {
  constructor(private readonly accounts: AccountRepository) {}

  async execute(caller: Caller): Promise<AccountView> {
    const account = await this.accounts.getAccount(caller.accountId);
    if (account === undefined) throw accountNotFound(caller.accountId);
    return accountView(account);
  }
}
