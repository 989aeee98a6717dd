import { Injectable } from '@nestjs/common';
import {
  applyMoves,
  type BrandRegistration,
  brandRegistrationView,
  type BrandReview,
  OPERATOR_ACTOR,
  type RegistrationMove,
  reviewMoves,
} from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { BrandRegistrationRepository } from '@notify/store';
import type { Clock } from '@notify/util';
import { noBrand } from './get-brand.usecase';
import { RegistrationHistory } from './registration-history';

/**
 * The operator records a review outcome of an account's brand or campaign. The moves are checked
 * against the stored statuses and written in one atomic step (an illegal one is 409 and nothing
 * moves); a status equal to the current one is no move, so a retried review changes nothing and
 * records nothing. Each move, with the reason given, goes into the account's history.
 */
@Injectable()
export class ReviewBrandUseCase {
  constructor(
    private readonly brands: BrandRegistrationRepository,
    private readonly history: RegistrationHistory,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(command: {
    readonly accountId: string;
    readonly review: BrandReview;
  }): Promise<BrandRegistration> {
    const { accountId, review } = command;
    const at = new Date(this.clock.now()).toISOString();
    let moves: RegistrationMove[] = [];
    const stored = await this.brands.change(accountId, (current) => {
      if (current === undefined) throw noBrand(accountId);
      moves = reviewMoves(current, review);
      return moves.length === 0 ? undefined : { ...applyMoves(current, moves), updatedAt: at };
    });
    if (stored === undefined) throw noBrand(accountId);
    await this.history.record(
      accountId,
      moves,
      OPERATOR_ACTOR,
      at,
      review.reason === undefined ? {} : { reason: review.reason },
    );
    return brandRegistrationView(stored);
  }
}
