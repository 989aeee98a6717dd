export { InsightsModule } from './insights.module';
export { insightResultSchema, insightsRequestSchema } from './insights.schemas';
export { type InsightsReader, QueryInsightsUseCase } from './query-insights.usecase';
