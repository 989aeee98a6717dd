import { Injectable } from '@nestjs/common';
import { registrationEventType, type RegistrationMove } from '@notify/domain';
import { InjectLogger, type Logger } from '@notify/platform';
import { AccountHistoryRepository } from '@notify/store';

/**
 * Records each move of a brand or campaign as an event of the account's history, after the move
 * is stored. The move stands whatever happens here: a history write that fails is logged (with
 * the event) rather than turning a done change into an error the caller would retry.
 */
@Injectable()
export class RegistrationHistory {
  constructor(
    private readonly history: AccountHistoryRepository,
    @InjectLogger() private readonly logger: Logger,
  ) {}

  async record(
    accountId: string,
    moves: readonly RegistrationMove[],
    actor: string,
    at: string,
    details: Readonly<Record<string, string>> = {},
  ): Promise<void> {
    for (const move of moves) {
      const event = {
        at,
        type: registrationEventType(move),
        actor,
        details: { from: move.from, ...details },
      };
      try {
        await this.history.append(accountId, event);
      } catch (error) {
        this.logger.error(
          { err: error, accountId, event },
          'a 10DLC move was not recorded in the account history',
        );
      }
    }
  }
}
