import { Injectable } from '@nestjs/common';
import { InjectClock } from '@notify/platform';
import { AutoJoinRepository } from '@notify/store';
import { type Clock, ConflictError } from '@notify/util';
import { type AutoJoinView, GetAutoJoinUseCase } from './get-auto-join.usecase';

/**
 * Replaces the account's auto-join domains (an empty list turns auto-join off). A domain another
 * account has is refused (409 DOMAIN_TAKEN) and nothing changes.
 */
@Injectable()
export class SetAutoJoinUseCase {
  constructor(
    private readonly autoJoin: AutoJoinRepository,
    private readonly view: GetAutoJoinUseCase,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(accountId: string, domains: readonly string[]): Promise<AutoJoinView> {
    const now = new Date(this.clock.now()).toISOString();
    const { taken } = await this.autoJoin.replace(accountId, domains, now);
    if (taken.length > 0)
      throw new ConflictError({
        code: 'DOMAIN_TAKEN',
        message: `Another account auto-joins ${taken.join(', ')}.`,
        fix: 'A domain can auto-join one account only; leave it out, or remove it from the other account first.',
      });
    return this.view.execute(accountId);
  }
}
