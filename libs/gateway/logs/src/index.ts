export { type LogQueryBody, logQuerySchema, LogQueryUseCase } from './log-query.usecase';
export { LogsModule } from './logs.module';
