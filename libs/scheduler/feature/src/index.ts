export { ReleaseDueSendsUseCase } from './release-due-sends.usecase';
export { SchedulerModule } from './scheduler.module';
export { ReleaseDueDigestsUseCase } from './release-due-digests.usecase';
