import { Injectable } from '@nestjs/common';
import { type AccountEvent } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';
import { AccountHistoryRepository } from '@notify/store';

/**
 * Records billing's moves in the history of the organization's billing account (the account that
 * set billing up), after they are stored. The move stands whatever happens here: a history write
 * that fails is logged (with the event) rather than turning a done change into an error.
 */
@Injectable()
export class BillingHistory {
  constructor(
    private readonly history: AccountHistoryRepository,
    @InjectLogger() private readonly logger: Logger,
  ) {}

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
