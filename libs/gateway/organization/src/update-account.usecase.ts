import { Injectable } from '@nestjs/common';
import { roleAllows } from '@notify/domain';
import type { Caller } from '@notify/gateway-auth';
import { InjectClock } from '@notify/platform';
import { AccountRepository } from '@notify/store';
import { type Clock, ForbiddenError } from '@notify/util';
import type { UpdateAccountBody } from './account.schemas';
import { type AccountView, accountView } from './account.view';
import { accountNotFound } from './get-account.usecase';

/**
 * Renames the account the caller acts in (admins and owners; the route requires admin) or sets
 * `autoUpgrade`, which billing reads: that choice commits money, so only an owner makes it.
 */
@Injectable()
export class UpdateAccountUseCase {
  constructor(
    private readonly accounts: AccountRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: {
    readonly caller: Caller;
    readonly body: UpdateAccountBody;
  }): Promise<AccountView> {
    const { caller, body } = command;
    if (body.autoUpgrade !== undefined && !(caller.kind === 'member' && roleAllows(caller.role, 'owner')))
      throw new ForbiddenError({
        code: 'FORBIDDEN',
        message: 'Only an owner of the account may set autoUpgrade.',
        fix: 'Sign in as an owner of the account (Authorization: Bearer <JWT>).',
      });
    const updated = await this.accounts.updateAccount(caller.accountId, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.autoUpgrade !== undefined ? { autoUpgrade: body.autoUpgrade } : {}),
      updatedAt: new Date(this.clock.now()).toISOString(),
    });
    if (updated === undefined) throw accountNotFound(caller.accountId);
    return accountView(updated);
  }
}
