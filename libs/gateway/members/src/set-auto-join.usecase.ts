import { Injectable } from '@nestjs/common';
import { emailDomain } from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { AutoJoinRepository } from '@notify/store';
import { type Clock, ConflictError, InvalidRequestError } from '@notify/util';
import { type AutoJoinView, GetAutoJoinUseCase } from './get-auto-join.usecase';

/**
 * Replaces the account's auto-join domains (an empty list turns auto-join off). Whoever names a
 * domain must prove they hold it: the only domain an admin may set is that of their own sign-in
 * email (the address their identity provider vouches for), else 400 DOMAIN_NOT_VERIFIED; without
 * this anyone could pull every future sign-in of someone else's company into their account. A
 * domain another account has is refused (409 DOMAIN_TAKEN). Either way nothing changes.
 */
@Injectable()
export class SetAutoJoinUseCase {
  constructor(
    private readonly autoJoin: AutoJoinRepository,
    private readonly view: GetAutoJoinUseCase,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(accountId: string, domains: readonly string[], callerEmail: string): Promise<AutoJoinView> {
    const own = emailDomain(callerEmail);
    const unproven = domains.filter((domain) => domain !== own);
    if (unproven.length > 0)
      throw new InvalidRequestError({
        code: 'DOMAIN_NOT_VERIFIED',
        message: `You may set only ${own}, the domain of your own sign-in email; not ${unproven.join(', ')}.`,
        fix: 'Ask an admin who signs in with an address at that domain to set it.',
      });
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
