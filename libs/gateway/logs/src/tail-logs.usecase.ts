import { Inject, Injectable } from '@nestjs/common';
import type { LogRecord } from '@notify/domain';
import { EVENT_LOG, type EventLog } from '@notify/event-log';
import type { Tenant } from '@notify/gateway-auth';

/** How many records `GET /logs/tail` answers with. */
export const TAIL_SIZE = 100;

/** The environment's most recently active log records (by their latest event), newest first. */
@Injectable()
export class TailLogsUseCase {
  constructor(@Inject(EVENT_LOG) private readonly log: EventLog) {}

  async execute(tenant: Tenant): Promise<{ logs: LogRecord[] }> {
    return { logs: await this.log.latestRecords(tenant, TAIL_SIZE) };
  }
}
