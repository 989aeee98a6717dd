import { Injectable } from '@nestjs/common';
import { ACCOUNT_HISTORY_KEEP, type AccountEvent } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';
import { AccountHistoryRepository } from '@notify/store';

/**
 * Records billing's moves in the history of the organization's billing account (the account that
 * set billing up). The move stands whatever happens here: a history write that fails is logged
 * (with the event) rather than turning a change into an error.
 */
@Injectable()
export class BillingHistory {
  constructor(
    private readonly history: AccountHistoryRepository,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  /**
   * Records the moves a Stripe event makes unless the history has that event's moves already: the
   * moves are written before the organization is stored, and Stripe's retry after a crash between
   * the two computes and writes the same moves again.
   */
  async recordStripeEvent(
    accountId: string | undefined,
    stripeEventId: string,
    events: readonly AccountEvent[],
  ): Promise<void> {
    if (accountId === undefined || events.length === 0) return;
    const recent = await this.history.list(accountId, ACCOUNT_HISTORY_KEEP);
    if (recent.some((event) => event.details['stripeEventId'] === stripeEventId)) return;
    await this.record(accountId, events);
  }

  async record(accountId: string | undefined, events: readonly AccountEvent[]): Promise<void> {
    if (accountId === undefined) return;
    for (const event of events) {
      try {
        await this.history.append(accountId, event);
      } catch (error) {
        this.logger.error(
          { err: error, accountId, event },
          'a billing move was not recorded in the account history',
        );
      }
    }
  }
}
