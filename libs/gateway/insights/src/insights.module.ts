import { Module } from '@nestjs/common';
import { InsightsController } from './insights.controller';
import { QueryInsightsUseCase } from './query-insights.usecase';

/** `POST /insights`: the query side over the metric store (METRIC_SOURCE, from the event-log module). */
@Module({ controllers: [InsightsController], providers: [QueryInsightsUseCase] })
export class InsightsModule {}
