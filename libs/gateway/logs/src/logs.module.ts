import { Module } from '@nestjs/common';
import { LogQueryUseCase } from './log-query.usecase';
import { LogsController } from './logs.controller';

/** Delivery log lookups and background log queries. */
@Module({ controllers: [LogsController], providers: [LogQueryUseCase], exports: [LogQueryUseCase] })
export class LogsModule {}
