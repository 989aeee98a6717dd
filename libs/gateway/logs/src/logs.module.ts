import { Module } from '@nestjs/common';
import { ListLogsUseCase } from './list-logs.usecase';
import { LogEventsUseCase } from './log-events.usecase';
import { LogQueryUseCase } from './log-query.usecase';
import { LogRetentionUseCase } from './log-retention.usecase';
import { LogsController } from './logs.controller';
import { TailLogsUseCase } from './tail-logs.usecase';

/** Delivery log lookups, the event list and tail, a send's timeline, the retention, and background log queries. */
@Module({
  controllers: [LogsController],
  providers: [LogQueryUseCase, ListLogsUseCase, TailLogsUseCase, LogRetentionUseCase, LogEventsUseCase],
  exports: [LogQueryUseCase],
})
export class LogsModule {}
