import { Injectable } from '@nestjs/common';
import type { AccountEvent } from '@notify/domain';
import { AccountHistoryRepository } from '@notify/store';

/** The newest events of the account the caller acts in, newest first. */
@Injectable()
export class ListAccountHistoryUseCase {
  constructor(private readonly history: AccountHistoryRepository) {}

  async execute(command: {
    readonly accountId: string;
    readonly limit: number;
  }): Promise<{ events: AccountEvent[] }> {
    return { events: await this.history.list(command.accountId, command.limit) };
  }
}
