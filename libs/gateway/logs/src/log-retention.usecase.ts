import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '@notify/platform';

/**
 * How long delivery logs are kept: LOG_RETENTION_DAYS, the same for every account of the
 * deployment (the event log's tables expire rows by it).
 */
@Injectable()
export class LogRetentionUseCase {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  execute(): { retentionInDays: number } {
    return { retentionInDays: this.config.eventLog.retentionDays };
  }
}
