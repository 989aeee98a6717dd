export { ReleaseDueSendsUseCase } from './release-due-sends.usecase';
export { SchedulerModule } from './scheduler.module';
