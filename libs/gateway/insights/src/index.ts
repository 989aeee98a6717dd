export { InsightsModule } from './insights.module';
export { QueryInsightsUseCase } from './query-insights.usecase';
