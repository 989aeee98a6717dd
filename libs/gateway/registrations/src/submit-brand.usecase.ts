import { Injectable } from '@nestjs/common';
import {
  type BrandDetails,
  type BrandRegistration,
  brandRegistrationView,
  type RegistrationMove,
  submissionMove,
} from '@notify/domain';
import { type Caller, callerActor } from '@notify/gateway-auth';
import { InjectClock } from '@notify/platform';
import { BrandRegistrationRepository } from '@notify/store';
import { type Clock, ForbiddenError } from '@notify/util';
import { RegistrationHistory } from './registration-history';

/**
 * Submits the account's 10DLC brand for review (`pending_review`): a first submission, or a
 * corrected one after `info_needed` or `rejected`, which replaces the submitted fields and keeps
 * `createdAt` and the campaign's status. While the brand is in review or approved it is refused
 * (409), checked and written in one atomic step. The move goes into the account's history.
 * The brand is the account's, registered with real carriers: a key of a test environment, which
 * must not change anything outside its sandbox, may not submit it (403).
 */
@Injectable()
export class SubmitBrandUseCase {
  constructor(
    private readonly brands: BrandRegistrationRepository,
    private readonly history: RegistrationHistory,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: {
    readonly caller: Caller;
    readonly details: BrandDetails;
  }): Promise<BrandRegistration> {
    const { caller, details } = command;
    if (caller.kind === 'key' && caller.test)
      throw new ForbiddenError({
        code: 'FORBIDDEN',
        message:
          "A key of a test environment cannot submit the account's 10DLC brand: the brand is registered with carriers for the whole account.",
        fix: 'Submit it with a key of a live environment, or as an owner or admin of the account.',
      });
    const at = new Date(this.clock.now()).toISOString();
    let move: RegistrationMove | undefined;
    const stored = await this.brands.change(caller.accountId, (current) => {
      move = submissionMove(current?.brandStatus);
      return {
        ...details,
        accountId: caller.accountId,
        brandStatus: move.to,
        campaignStatus: current?.campaignStatus ?? 'not_started',
        createdAt: current?.createdAt ?? at,
        updatedAt: at,
      };
    });
    if (stored === undefined || move === undefined) throw new Error('the brand registration was not stored');
    await this.history.record(caller.accountId, [move], callerActor(caller), at, {
      businessType: details.businessType,
    });
    return brandRegistrationView(stored);
  }
}
